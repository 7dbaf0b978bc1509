/*
 * shelfwise ask widget: ask a shelf a question from any page.
 *
 *   <script src="https://docs.example.org/northwind/assets/shelfwise/shelfwise-ask.js"
 *           data-endpoint="http://127.0.0.1:8000" data-shelf="northwind" data-token="..."></script>
 *
 * data-endpoint  the answering API; the widget POSTs {question, shelf} to {endpoint}/api/ask; a relative
 *                URL is resolved against the page ("/": the server serving it). Empty: the server the page
 *                came from answers when it is a shelfwise serve granting the shelf (its /api/health lists
 *                it; `shelfwise serve` on any --port), else the widget only searches the site
 * data-shelf     the shelf to ask
 * data-token     sent as "Authorization: Bearer TOKEN" (optional; it is public in the page)
 * data-site      the shelf's site root (default: two folders above this script)
 * data-timeout   milliseconds to wait for an answer (default 60000)
 *
 * Answer contract: {answer_markdown, sentences: [{text, citations: [section_id], kind, source, cells}], not_covered: [str],
 * label: "complete"|"partial"|"conditional"|"not_in_documents", sources: [{section_id, doc_id, title}], warnings: [str],
 * trace_id}. The answer shown is the API's answer_markdown, every line of it: the premise's correction, each block's
 * document ("QM-001 Rev C (superseded by Rev D) said:"), each table under its own header, the "Shown: k of n"
 * notes and the gaps; the warnings above it. Its Markdown is read as the answer writer writes it (paragraphs, **marks**,
 * `code`, lists, numbered steps, tables, ### headings, fenced code); nothing in it is interpreted as HTML. Each
 * citation [section id] becomes a chip naming the cited section's own document (its sources entry's doc id, else the
 * site's assets/shelfwise/sections.json: section id -> [page URL#anchor, label, doc id], documents: doc id ->
 * [short name, title]), and a document table's row citation lands on the row's anchor (#<section id>-r<n>) when the
 * cited page has it. An answer without Markdown (an older endpoint) is shown from its sentences. The widget asks for
 * server-sent events (Accept: text/event-stream): each stage the API reports as it completes (planned, compared, read,
 * written, checked) is shown as progress, and the final "answer" event is the answer (every sentence is checked before
 * any is shown, so its text comes whole); an endpoint answering plain JSON is read as before. While an answer is on
 * its way, Stop aborts the request, and the API stops at its next stage. Each answer has Copy (its Markdown) and Helpful / Not helpful, sent to
 * {endpoint}/api/answers/{trace_id}/feedback and kept with the answer's trace. Before the first question the
 * panel offers the shelf's example questions (shelf.toml "examples", in sections.json). The conversation is kept in
 * sessionStorage (per shelf and site), so it survives following a citation; a follow-up sends the earlier turns as
 * "history". When the endpoint cannot be reached or fails, the widget searches the site's
 * search/search_index.json instead, naming each hit's document.
 * Server and document text is only ever set with textContent: it is shown, never interpreted.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.__shelfwiseAsk) { return; }
  window.__shelfwiseAsk = true;

  var data = script.dataset;

  function siteRoot(value) {
    // mkdocs' 404 page has base_url "/", so its data-site reads "//": a host-less URL, not the site root; the
    // script's own place (assets/shelfwise/, two folders below the root) is then the root's
    var fromScript = new URL("../../", script.src).href;
    if (!value || /^\/\//.test(value)) { return fromScript; }
    try { return new URL(value, location.href).href; } catch (error) { return fromScript; }
  }

  var cfg = {
    endpoint: endpointUrl(data.endpoint),
    shelf: data.shelf || "",
    token: data.token || "",
    site: siteRoot(data.site),
    timeout: parseInt(data.timeout || "60000", 10)
  };
  var cache = {};
  var served = null;

  function endpointUrl(value) {
    if (!value) { return ""; }
    try { return new URL(value, location.href).href.replace(/\/+$/, ""); } catch (error) { return ""; }
  }

  function servedEndpoint() {
    // no endpoint configured: the origin this page came from, when it is a shelfwise serve that grants the shelf
    if (!served) {
      var headers = { "Accept": "application/json" };
      if (cfg.token) { headers.Authorization = "Bearer " + cfg.token; }
      served = !/^https?:$/.test(location.protocol) ? Promise.resolve("") :
        fetch(location.origin + "/api/health", { headers: headers, credentials: "same-origin" }).then(function (response) {
          return response.ok ? response.json() : null;
        }).then(function (health) {
          return health && Array.isArray(health.shelves) && health.shelves.indexOf(cfg.shelf) >= 0 ? location.origin : "";
        }).catch(function () { served = null; return ""; });  // unreachable now: asked again next time
    }
    return served;
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function siteUrl(path) {
    var url = new URL(path, cfg.site);
    return /^(https?|file):$/.test(url.protocol) ? url.href : null;
  }

  function fetchJson(path) {
    if (!cache[path]) {
      cache[path] = fetch(siteUrl(path), { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.json();
      });
      cache[path].catch(function () { delete cache[path]; });
    }
    return cache[path];
  }

  function count(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function plain(html) {
    // DOMParser documents are inert: no scripts run, nothing loads.
    return new DOMParser().parseFromString(String(html || ""), "text/html").body.textContent || "";
  }

  // --- the conversation, kept across pages ----------------------------------------------------
  var STORE_KEY = "shelfwise-ask:" + cfg.shelf + ":" + cfg.site;
  var MAX_TURNS = 8;
  function load() {
    try {
      var saved = JSON.parse(sessionStorage.getItem(STORE_KEY) || "null");
      if (saved && Array.isArray(saved.turns)) { return saved; }
    } catch (error) { /* storage off or corrupt: start afresh */ }
    return { open: false, turns: [] };
  }
  var state = load();
  function save() {
    try { sessionStorage.setItem(STORE_KEY, JSON.stringify(state)); } catch (error) { /* full or off: keep in memory */ }
  }

  // --- the panel -------------------------------------------------------------------------
  var link = el("link", { rel: "stylesheet", href: new URL("shelfwise-ask.css", script.src).href });
  document.head.appendChild(link);
  var root = el("div", { class: "sw-ask" });
  var toggle = el("button", { type: "button", class: "sw-ask-toggle", "aria-expanded": "false", "aria-haspopup": "dialog",
                              "aria-controls": "sw-ask-panel", "aria-label": "Ask" }, "Ask");
  var panel = el("div", { id: "sw-ask-panel", class: "sw-ask-panel", role: "dialog", "aria-labelledby": "sw-ask-title",
                          "aria-describedby": "sw-ask-status" });
  panel.hidden = true;
  var title = el("p", { id: "sw-ask-title", class: "sw-ask-title" }, "Ask " + (cfg.shelf || "this site"));
  var conversation = el("div", { class: "sw-ask-conversation", role: "log", "aria-live": "polite", "aria-label": "Questions and answers" });
  var form = el("form", { class: "sw-ask-form", role: "search", "aria-label": "Ask a question" });
  var label = el("label", { for: "sw-ask-input", class: "sw-ask-label" }, "Ask a question about " + (cfg.shelf || "this site"));
  var input = el("input", { id: "sw-ask-input", class: "sw-ask-input", type: "text", autocomplete: "off", enterkeyhint: "send",
                            placeholder: "Type a question, press Enter" });
  var submit = el("button", { type: "submit", class: "sw-ask-submit" }, "Ask");
  var stop = el("button", { type: "button", class: "sw-ask-stop" }, "Stop");
  stop.hidden = true;
  var examples = el("div", { class: "sw-ask-examples" });
  examples.hidden = true;
  var reset = el("button", { type: "button", class: "sw-ask-reset" }, "New conversation");
  var close = el("button", { type: "button", class: "sw-ask-close", "aria-label": "Close the Ask panel" }, "\u00d7");
  var status = el("p", { id: "sw-ask-status", class: "sw-ask-status", role: "status", "aria-live": "polite" });
  form.appendChild(label);
  form.appendChild(input);
  form.appendChild(submit);
  form.appendChild(stop);
  panel.appendChild(close);
  panel.appendChild(title);
  panel.appendChild(reset);
  panel.appendChild(examples);
  panel.appendChild(conversation);
  panel.appendChild(status);
  panel.appendChild(form);
  root.appendChild(toggle);
  root.appendChild(panel);

  function open(focus) {
    panel.hidden = false;
    toggle.setAttribute("aria-expanded", "true");
    state.open = true;
    save();
    if (focus !== false) { input.focus(); }
  }
  function shut() {
    panel.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
    state.open = false;
    save();
    toggle.focus();
  }
  function followUpMode() {
    var asked = state.turns.length > 0;
    if (asked) { toggle.setAttribute("data-turns", String(state.turns.length)); } else { toggle.removeAttribute("data-turns"); }
    label.textContent = asked ? "Ask a follow-up (the earlier questions are sent with it)"
                              : "Ask a question about " + (cfg.shelf || "this site");
    input.placeholder = asked ? "A follow-up question, press Enter" : "Type a question, press Enter";
    reset.hidden = !asked;
    examples.hidden = asked || !examples.childNodes.length;
  }
  toggle.addEventListener("click", function () { if (panel.hidden) { open(); } else { shut(); } });
  close.addEventListener("click", shut);
  function showExamples(map) {
    // the shelf's example questions (shelf.toml "examples"), offered until the first question
    var list = (Array.isArray(map.examples) ? map.examples : []).filter(function (q) { return typeof q === "string" && q.trim(); });
    examples.textContent = "";
    if (!list.length) { return; }
    examples.appendChild(el("p", { id: "sw-ask-examples-title", class: "sw-ask-heading" }, "Example questions"));
    var ul = el("ul", { "aria-labelledby": "sw-ask-examples-title" });
    list.slice(0, 8).forEach(function (question) {
      var li = el("li"), button = el("button", { type: "button", class: "sw-ask-example" }, question);
      button.addEventListener("click", function () { if (!asking) { ask(question); } });
      li.appendChild(button);
      ul.appendChild(li);
    });
    examples.appendChild(ul);
    followUpMode();
  }
  reset.addEventListener("click", function () {
    state.turns = [];
    save();
    conversation.textContent = "";
    status.textContent = "Started a new conversation.";
    followUpMode();
    input.focus();
  });
  // keyboard: Esc closes (focus back on the button); Tab and Shift+Tab go round the panel's controls, not out of it
  function focusables() {
    return Array.prototype.filter.call(panel.querySelectorAll('a[href], button, input, [tabindex]:not([tabindex="-1"])'),
      function (node) { return !node.disabled && node.getClientRects().length > 0; });
  }
  root.addEventListener("keydown", function (event) {
    if (panel.hidden) { return; }
    if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); shut(); return; }
    if (event.key !== "Tab") { return; }
    var items = focusables();
    if (!items.length) { return; }
    var first = items[0], last = items[items.length - 1], here = document.activeElement;
    if (!panel.contains(here)) { event.preventDefault(); (event.shiftKey ? last : first).focus(); }
    else if (event.shiftKey && here === first) { event.preventDefault(); last.focus(); }
    else if (!event.shiftKey && here === last) { event.preventDefault(); first.focus(); }
  });
  conversation.addEventListener("click", function (event) {
    // following a citation or a hit: the next page restores the conversation (open on a wide screen, where
    // it sits beside the text; closed on a phone, where it would cover the cited passage)
    var target = event.target && event.target.closest ? event.target.closest("a[href]") : null;
    if (target) { state.followed = true; save(); }
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var question = input.value.trim();
    if (question) { input.value = ""; ask(question); }
  });

  // --- asking ----------------------------------------------------------------------------
  function history() {
    return state.turns.filter(function (turn) { return turn.answer; }).slice(-MAX_TURNS).map(function (turn) {
      return { question: turn.question, answer: String(turn.answer.answer_markdown || ""),
               citations: (turn.answer.sentences || []).reduce(function (ids, s) {
                 return ids.concat(Array.isArray(s.citations) ? s.citations.map(String) : []);
               }, []).slice(0, 500) };
    });
  }

  function keep(turn) {
    state.turns.push(turn);
    state.turns = state.turns.slice(-MAX_TURNS);
    save();
    followUpMode();
  }

  var asking = null;  // the AbortController of the request on its way
  stop.addEventListener("click", function () { if (asking) { asking.stopped = true; asking.abort(); } });
  function busy(controller) {
    asking = controller;
    stop.hidden = !controller;
    submit.disabled = !!controller;
    if (!controller && document.activeElement === stop) { input.focus(); }
  }

  function ask(question) {
    if (asking) { return Promise.resolve(); }
    return (cfg.endpoint ? Promise.resolve(cfg.endpoint) : servedEndpoint()).then(function (endpoint) {
      if (!endpoint) {
        return fallback(question, "This site has no answering service configured; showing search results.");
      }
      return askAt(endpoint, question);
    });
  }

  function askAt(endpoint, question) {
    status.textContent = "Asking\u2026 (Stop cancels)";
    var controller = new AbortController();
    busy(controller);
    var timer = setTimeout(function () { controller.abort(); }, cfg.timeout);
    var headers = { "Content-Type": "application/json", "Accept": "text/event-stream, application/json" };
    if (cfg.token) { headers.Authorization = "Bearer " + cfg.token; }
    return fetch(endpoint + "/api/ask", {
      method: "POST", headers: headers, signal: controller.signal,
      body: JSON.stringify({ question: question, shelf: cfg.shelf, history: history() })
    }).then(function (response) {
      if (!response.ok) { throw new Error("it answered HTTP " + response.status); }
      return readAnswer(response);
    }).then(function (answer) {
      clearTimeout(timer);
      busy(null);
      if (!answer || typeof answer !== "object") { throw new Error("its reply was not an answer"); }
      var turn = { question: question, answer: slim(answer), endpoint: endpoint };
      keep(turn);
      return showTurn(turn, true);
    }).catch(function (error) {
      clearTimeout(timer);
      busy(null);
      if (controller.stopped) {
        status.textContent = "Stopped: no answer to \u201c" + question + "\u201d was shown.";
        input.value = input.value || question;
        return;
      }
      var why = error && error.name === "AbortError" ? "it did not answer in time" : (error && error.message) || "unreachable";
      return fallback(question, "The answering service could not be reached (" + why + "); showing site search results instead.");
    });
  }

  // --- a streamed answer: one server-sent event per stage, then the answer ------------------------------
  var CONFIRMED = ["verbatim", "supports", "restated", "carried", "computed"];
  function stageLine(name, data) {
    if (name === "planned") {
      var asks = (data.obligations || []).map(function (o) { return "\u201c" + o.ask + "\u201d"; });
      return "Planned " + count(asks.length, "part") + (asks.length ? ": " + asks.join("; ") : "");
    }
    if (name === "compared") { return "Compared the versions (computed, no model)"; }
    if (name === "read") { return "Read " + count(data.sections || 0, "section") + " of " + count(data.documents || 0, "document"); }
    if (name === "written") { return "Drafted " + count(data.units || 0, "statement"); }
    if (name === "checked") {
      var statuses = data.statuses || {};
      var confirmed = CONFIRMED.reduce(function (n, s) { return n + (statuses[s] || 0); }, 0);
      return "Checked " + count(data.units || 0, "statement") + " against the documents (" + confirmed + " confirmed)";
    }
    return "";
  }

  function readAnswer(response) {
    // a plain JSON answer (an endpoint that does not stream), or the events of a streamed one
    if ((response.headers.get("Content-Type") || "").indexOf("text/event-stream") !== 0 || !response.body) { return response.json(); }
    var reader = response.body.getReader(), decoder = new TextDecoder(), buffer = "", done = [];
    function event(block) {
      var name = "message", data = "";
      block.split("\n").forEach(function (line) {
        if (line.indexOf("event:") === 0) { name = line.slice(6).trim(); }
        if (line.indexOf("data:") === 0) { data += line.slice(5).trim(); }
      });
      var body = data ? JSON.parse(data) : {};
      if (name === "answer") { return body; }
      if (name === "error") { throw new Error("it answered HTTP " + (body.status || "error") + ": " + (body.error || "")); }
      var line = stageLine(name, body);
      if (line) { done.push(line); status.textContent = done.join(" \u00b7 ") + "\u2026 (Stop cancels)"; }
      return null;
    }
    function pump() {
      return reader.read().then(function (chunk) {
        buffer = (buffer + decoder.decode(chunk.value || new Uint8Array(), { stream: !chunk.done })).replace(/\r\n/g, "\n");
        var blocks = buffer.split("\n\n");
        buffer = chunk.done ? "" : blocks.pop();
        for (var i = 0; i < blocks.length; i++) {
          var answer = blocks[i].trim() ? event(blocks[i]) : null;
          if (answer) { return answer; }
        }
        if (chunk.done) { throw new Error("its stream ended without an answer"); }
        return pump();
      });
    }
    return pump();
  }

  function slim(answer) {
    // what the widget shows and sends back, no more (sessionStorage is small)
    return { answer_markdown: answer.answer_markdown, sentences: answer.sentences, not_covered: answer.not_covered,
             label: answer.label, trace_id: answer.trace_id, sources: answer.sources, warnings: answer.warnings,
             resolved_question: answer.resolved_question };
  }

  // --- showing an answer -----------------------------------------------------------------
  function sectionsMap() {
    return fetchJson("assets/shelfwise/sections.json").then(function (map) { return map || {}; }, function () { return {}; });
  }

  function documentName(id, answer, map) {
    // the cited section's own document: its sources entry, else the site's map (never the sentence's first source)
    var docs = map.documents || {}, entry = (map.sections || {})[id];
    var source = (Array.isArray(answer.sources) ? answer.sources : []).filter(function (s) { return s && s.section_id === id; })[0];
    var docId = (source && source.doc_id) || (entry && entry[2]);
    if (docId && docs[docId]) { return docs[docId][0]; }
    return (source && source.title) || "";
  }

  function chip(id, answer, map, numbers) {
    // "[n] QM-001 Rev D": its accessible name is its text; the section it opens is its title
    if (!(id in numbers)) { numbers[id] = Object.keys(numbers).length + 1; }
    var entry = (map.sections || {})[id];
    var href = entry ? siteUrl(entry[0]) : null;
    var name = documentName(id, answer, map);
    if (href) { return el("a", { href: href, class: "sw-ask-cite", title: entry[1] }, "[" + numbers[id] + "]" + (name ? " " + name : "")); }
    return el("span", { class: "sw-ask-cite", title: "section " + id }, "[" + id + "]" + (name ? " " + name : ""));
  }

  function citationLinks(sentence, answer, map, numbers, rowCites) {
    var ids = Array.isArray(sentence && sentence.citations) ? sentence.citations : [];
    var span = el("span", { class: "sw-ask-cites" });
    ids.forEach(function (id) {
      var node = chip(String(id), answer, map, numbers);
      if (sentence.kind === "table_row" && node.tagName === "A") {
        rowCites.push({ node: node, id: String(id), text: sentence.text, url: node.getAttribute("href") });
      }
      span.appendChild(document.createTextNode(" "));
      span.appendChild(node);
    });
    return span;
  }

  var WHOLE = /^\S{1,32}$|^(?=.{1,24}$).*\b(\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})\b/;
  // a row's cells as the answer gives them; a row without them (an older endpoint) split from its text
  function cells(row) { return row.cells && row.cells.length ? row.cells : String(row.text || "").split(" | "); }
  var TOKEN = /[^\s-]*\d[^\s-]*(?:-[^\s-]+)+|[^\s-]+(?:-[^\s-]*\d[^\s-]*)+/g;
  function cell(tag, attrs, value) {
    // a cell that may wrap keeps its hyphenated ids and dates ("DPG-200", "2025-10-14") on one line
    if (WHOLE.test(value)) { attrs["class"] = "sw-nw"; return el(tag, attrs, value); }
    var node = el(tag, attrs), last = 0, match;
    TOKEN.lastIndex = 0;
    while ((match = TOKEN.exec(value)) !== null) {
      node.appendChild(document.createTextNode(value.slice(last, match.index)));
      node.appendChild(el("span", { class: "sw-nw" }, match[0]));
      last = match.index + match[0].length;
    }
    node.appendChild(document.createTextNode(value.slice(last)));
    return node;
  }

  function tableOf(rows, answer, map, numbers, rowCites) {
    var wrap = el("div", { class: "sw-ask-tablewrap", role: "region", "aria-label": "Table from the documents", tabindex: "0" });
    var table = el("table", { class: "sw-ask-table" });
    var header = rows[0].kind === "table_header" ? rows[0] : null;  // the caller starts a new table at each header
    var body = rows.filter(function (r) { return r.kind !== "table_header"; });
    var width = rows.reduce(function (w, r) { return Math.max(w, cells(r).length); }, 0);
    if (header) {
      var thead = el("thead"), tr = el("tr");
      cells(header).forEach(function (c) { tr.appendChild(cell("th", { scope: "col" }, c)); });
      tr.appendChild(el("th", { scope: "col" }, "Source"));
      thead.appendChild(tr);
      table.appendChild(thead);
    }
    var tbody = el("tbody");
    body.forEach(function (row) {
      var tr = el("tr", { class: "sw-ask-sentence sw-ask-row" });
      var values = cells(row);
      for (var i = 0; i < width; i++) {
        var value = values[i] || "";
        tr.appendChild(cell(i === 0 ? "th" : "td", i === 0 ? { scope: "row" } : {}, value));
      }
      var cite = el("td", { class: "sw-ask-rowcite" });
      cite.appendChild(citationLinks(row, answer, map, numbers, rowCites));
      tr.appendChild(cite);
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    wrap.appendChild(table);
    return wrap;
  }

  var pages = {};
  function rowAnchors(rowCites) {
    // a row's citation lands on the row: the cited page (same site) is read inertly, the row found by its cells
    rowCites.forEach(function (cite) {
      var url = cite.url.split("#")[0];
      if (!pages[url]) {
        pages[url] = fetch(url, { credentials: "same-origin" }).then(function (r) { return r.ok ? r.text() : ""; })
          .then(function (html) { return new DOMParser().parseFromString(html, "text/html"); }, function () { return null; });
      }
      pages[url].then(function (doc) {
        if (!doc) { return; }
        var want = String(cite.text).split(/\s+/).join(" ").trim();
        var rows = doc.querySelectorAll("tr[id^='" + cite.id + "-r']");
        for (var i = 0; i < rows.length; i++) {
          var text = Array.prototype.map.call(rows[i].children, function (c) { return c.textContent.split(/\s+/).join(" ").trim(); }).join(" | ");
          if (text === want) { cite.node.setAttribute("href", url + "#" + rows[i].id); return; }
        }
      });
    });
  }

  function showTurn(turn, announce) {
    return sectionsMap().then(function (map) {
      var item = el("section", { class: "sw-ask-turn", "aria-label": "Question: " + turn.question });
      item.appendChild(el("p", { class: "sw-ask-question" }, turn.question));
      var resolved = turn.answer && typeof turn.answer.resolved_question === "string" ? turn.answer.resolved_question : "";
      if (resolved && resolved.trim().toLowerCase() !== turn.question.trim().toLowerCase()) {
        item.appendChild(el("p", { class: "sw-ask-resolved" }, "Read as: " + resolved));  // a follow-up, filled in
      }
      if (turn.answer) { renderAnswer(item, turn, map, announce); }
      else { renderHits(item, turn, map); }
      conversation.appendChild(item);
      if (announce) { item.scrollIntoView({ block: "nearest" }); }
    });
  }

  // --- the answer's Markdown, read as the answer writer writes it; every piece of text set with textContent ---------
  var CITE = /`([^`\n]+)`|\[(s[0-9a-z]{11})\]/g;
  function inline(parent, text, ctx) {
    // a leading **mark** (the answer writer's own: a document's name, "Contrary to what the question assumes, ..."),
    // `code` and [section id] citations; everything else is literal text (a quoted "**" stays as it is)
    var lead = text.match(/^\*\*(.+?)\*\*/), last = 0, match;
    if (lead) { parent.appendChild(el("strong", { class: "sw-ask-mark" }, lead[1])); text = text.slice(lead[0].length); }
    CITE.lastIndex = 0;
    while ((match = CITE.exec(text)) !== null) {
      parent.appendChild(document.createTextNode(text.slice(last, match.index)));
      if (match[1] !== undefined) { parent.appendChild(el("code", {}, match[1])); }
      else { parent.appendChild(chip(match[2], ctx.answer, ctx.map, ctx.numbers)); }
      last = CITE.lastIndex;
    }
    parent.appendChild(document.createTextNode(text.slice(last)));
    return parent;
  }

  function rowCells(line) {
    // "| a | b \| c |" -> ["a", "b | c"]: the cells between unescaped pipes
    var cells = [], current = "", text = line.trim();
    for (var i = 0; i < text.length; i++) {
      if (text[i] === "\\" && text[i + 1] === "|") { current += "|"; i++; }
      else if (text[i] === "|") { cells.push(current.trim()); current = ""; }
      else { current += text[i]; }
    }
    cells.push(current.trim());
    return cells.slice(text[0] === "|" ? 1 : 0, text[text.length - 1] === "|" && !/\\\|$/.test(text) ? -1 : undefined);
  }

  var RULE = /^\|?(\s*:?-{3,}:?\s*\|)+\s*(:?-{3,}:?\s*)?$/;
  function tableStart(lines, i) { return /^\|/.test(lines[i]) && i + 1 < lines.length && RULE.test(lines[i + 1]); }
  function blockStart(lines, i) {
    var line = lines[i];
    return /^(`{3,}|#{1,6} |- |\d{1,3}\. )/.test(line) || tableStart(lines, i);
  }

  function mdTable(head, rows, ctx) {
    var sourceAt = head.length - 1 >= 0 && head[head.length - 1] === "Source" ? head.length - 1 : -1;
    var wrap = el("div", { class: "sw-ask-tablewrap", role: "region", tabindex: "0",
                           "aria-label": "Table: " + head.filter(function (c, n) { return n !== sourceAt; }).slice(0, 3).join(", ") });
    var table = el("table", { class: "sw-ask-table" }), thead = el("thead"), tr = el("tr");
    head.forEach(function (c) { tr.appendChild(cell("th", { scope: "col" }, c)); });
    thead.appendChild(tr);
    table.appendChild(thead);
    var tbody = el("tbody");
    rows.forEach(function (values) {
      var row = el("tr", { class: "sw-ask-row" });
      var text = values.filter(function (v, n) { return n !== sourceAt; }).join(" | ");
      for (var n = 0; n < head.length; n++) {
        var value = values[n] || "", tag = n === 0 ? "th" : "td", attrs = n === 0 ? { scope: "row" } : {};
        if (n === sourceAt) {
          // the row's source: its chips, which name the document, and each lands on the row in its page
          var td = el("td", { class: "sw-ask-rowcite" });
          var ids = value.match(/\[s[0-9a-z]{11}\]/g) || [];
          if (!ids.length) { td.textContent = value; }
          ids.forEach(function (ref) {
            var node = chip(ref.slice(1, -1), ctx.answer, ctx.map, ctx.numbers);
            if (node.tagName === "A") { ctx.rowCites.push({ node: node, id: ref.slice(1, -1), text: text, url: node.getAttribute("href") }); }
            td.appendChild(document.createTextNode(" "));
            td.appendChild(node);
          });
          row.appendChild(td);
        } else if (/\[s[0-9a-z]{11}\]|^\*\*|`/.test(value)) {
          row.appendChild(inline(el(tag, attrs), value, ctx));
        } else {
          row.appendChild(cell(tag, attrs, value));
        }
      }
      tbody.appendChild(row);
    });
    table.appendChild(tbody);
    wrap.appendChild(table);
    return wrap;
  }

  function mdParagraph(text, ctx) {
    var gap = (ctx.answer.not_covered || []).indexOf(text) >= 0;
    var italic = text.match(/^_(.+)_$/) || text.match(/^\*([^*].*[^*])\*$/);
    var kind = gap ? "sw-ask-gap" : /\[s[0-9a-z]{11}\]/.test(text) ? "sw-ask-sentence" : "sw-ask-note";
    var lead = text.match(/^\*\*(.+?)\*\*/);
    if (lead && /\(superseded by /.test(lead[1])) { kind += " sw-ask-superseded"; }
    var p = el("p", { class: kind });
    if (italic) { p.appendChild(inline(el("em"), italic[1], ctx)); return p; }
    return inline(p, text, ctx);
  }

  function renderMarkdown(markdown, ctx) {
    var lines = String(markdown).split("\n"), body = el("div", { class: "sw-ask-answer" }), i = 0;
    while (i < lines.length) {
      var line = lines[i], fence = line.match(/^(`{3,})/);
      if (!line.trim()) { i++; continue; }
      if (fence) {  // a code block the sentence before it introduces, as its document has it
        var code = [];
        for (i++; i < lines.length && lines[i] !== fence[1]; i++) { code.push(lines[i]); }
        i++;
        body.appendChild(el("pre", { class: "sw-ask-code" }, code.join("\n")));
      } else if (/^#{1,6} /.test(line)) {
        body.appendChild(inline(el("h3", { class: "sw-ask-subhead" }), line.replace(/^#+ /, ""), ctx));
        i++;
      } else if (tableStart(lines, i)) {  // each table under its own header
        var head = rowCells(line), rows = [];
        for (i += 2; i < lines.length && /^\|/.test(lines[i]); i++) { rows.push(rowCells(lines[i])); }
        body.appendChild(mdTable(head, rows, ctx));
      } else if (/^(- |\d{1,3}\. )/.test(line)) {
        var numbered = /^\d/.test(line), list = el(numbered ? "ol" : "ul", { class: "sw-ask-list" });
        body.appendChild(list);
        for (; i < lines.length && (numbered ? /^\d{1,3}\. / : /^- /).test(lines[i]); i++) {
          var number = lines[i].match(/^(\d{1,3})\. /);
          var li = el("li", number ? { value: number[1], class: "sw-ask-sentence" } : { class: "sw-ask-sentence" });
          list.appendChild(inline(li, lines[i].replace(/^(- |\d{1,3}\. )/, ""), ctx));
        }
      } else {
        var para = [];
        for (; i < lines.length && lines[i].trim() && (!para.length || !blockStart(lines, i)); i++) { para.push(lines[i].trim()); }
        body.appendChild(mdParagraph(para.join(" "), ctx));
      }
    }
    return body;
  }

  function renderSentences(answer, ctx) {
    // an answer without Markdown: its sentences, each table (from its header on) as its own table
    var sentences = Array.isArray(answer.sentences) ? answer.sentences.filter(function (s) { return s && typeof s === "object"; }) : [];
    var body = el("div", { class: "sw-ask-answer" });
    for (var i = 0; i < sentences.length; i++) {
      var sentence = sentences[i];
      if (sentence.kind === "table_header" || sentence.kind === "table_row") {
        var rows = [sentences[i]];
        while (i + 1 < sentences.length && sentences[i + 1].kind === "table_row") { rows.push(sentences[++i]); }
        body.appendChild(tableOf(rows, answer, ctx.map, ctx.numbers, ctx.rowCites));
        continue;
      }
      var p = sentence.kind === "code"
        ? el("pre", { class: "sw-ask-code" }, sentence.text)
        : el("p", { class: "sw-ask-sentence" + (sentence.kind === "step" || sentence.kind === "list_item" ? " sw-ask-item" : "") },
             sentence.text);
      if (sentence.kind !== "code") { p.appendChild(citationLinks(sentence, answer, ctx.map, ctx.numbers, ctx.rowCites)); }
      body.appendChild(p);
    }
    var gaps = Array.isArray(answer.not_covered) ? answer.not_covered : [];
    gaps.forEach(function (line) { body.appendChild(el("p", { class: "sw-ask-gap" }, line)); });
    return body;
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) { return navigator.clipboard.writeText(text); }
    return new Promise(function (resolve, reject) {  // a page served over plain http from another host
      var area = el("textarea", { readonly: "", "aria-hidden": "true", style: "position:fixed;left:-9999px" });
      area.value = text;
      document.body.appendChild(area);
      area.select();
      var done = document.execCommand("copy");
      document.body.removeChild(area);
      if (done) { resolve(); } else { reject(new Error("copy refused")); }
    });
  }

  function sendFeedback(turn, rating, buttons) {
    var headers = { "Content-Type": "application/json", "Accept": "application/json" };
    if (cfg.token) { headers.Authorization = "Bearer " + cfg.token; }
    status.textContent = "Sending your feedback\u2026";
    return fetch((turn.endpoint || cfg.endpoint) + "/api/answers/" + encodeURIComponent(turn.answer.trace_id) + "/feedback", {
      method: "POST", headers: headers, body: JSON.stringify({ rating: rating })
    }).then(function (response) {
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      turn.feedback = rating;
      save();
      buttons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-rating") === rating)); });
      status.textContent = "Thank you: your feedback is kept with answer " + turn.answer.trace_id + ".";
    }).catch(function (error) {
      status.textContent = "Your feedback could not be sent (" + ((error && error.message) || "unreachable") + ").";
    });
  }

  function answerActions(turn) {
    var answer = turn.answer, bar = el("div", { class: "sw-ask-actions" });
    var copy = el("button", { type: "button", class: "sw-ask-copy" }, "Copy answer");
    copy.addEventListener("click", function () {
      copyText(String(answer.answer_markdown || "")).then(function () {
        status.textContent = "Copied the answer (Markdown, with its section ids).";
      }, function () { status.textContent = "The answer could not be copied; select it and copy by hand."; });
    });
    bar.appendChild(copy);
    if ((turn.endpoint || cfg.endpoint) && /^a[0-9a-f]{20}$/.test(String(answer.trace_id || ""))) {
      var group = el("span", { class: "sw-ask-feedback", role: "group", "aria-label": "Was this answer helpful?" });
      var buttons = [["helpful", "Helpful"], ["not_helpful", "Not helpful"]].map(function (pair) {
        var button = el("button", { type: "button", class: "sw-ask-rate", "data-rating": pair[0],
                                    "aria-pressed": String(turn.feedback === pair[0]) }, pair[1]);
        group.appendChild(button);
        return button;
      });
      buttons.forEach(function (button) {
        button.addEventListener("click", function () { sendFeedback(turn, button.getAttribute("data-rating"), buttons); });
      });
      bar.appendChild(group);
    }
    return bar;
  }

  function renderAnswer(item, turn, map, announce) {
    var answer = turn.answer;
    var labels = { complete: "Complete answer", partial: "Partial answer", conditional: "Conditional answer",
                   not_in_documents: "Not in the documents" };
    var results = el("div", { class: "sw-ask-results" });
    results.appendChild(el("p", { class: "sw-ask-label-" + (labels[answer.label] ? answer.label : "unknown") },
                           labels[answer.label] || "Answer"));
    var warnings = (Array.isArray(answer.warnings) ? answer.warnings : []).filter(function (w) { return typeof w === "string" && w; });
    if (warnings.length) {
      var note = el("div", { class: "sw-ask-warnings", role: "note", "aria-label": "Warnings" });
      note.appendChild(el("p", { class: "sw-ask-heading" }, "Warnings"));
      var ul = el("ul");
      warnings.forEach(function (w) { ul.appendChild(el("li", {}, w)); });
      note.appendChild(ul);
      results.appendChild(note);
    }
    var ctx = { answer: answer, map: map, numbers: {}, rowCites: [] };
    results.appendChild(answer.answer_markdown ? renderMarkdown(answer.answer_markdown, ctx) : renderSentences(answer, ctx));
    var sections = map.sections || {};
    var cited = Object.keys(ctx.numbers).filter(function (id) { return sections[id]; });
    if (cited.length) {
      results.appendChild(el("p", { class: "sw-ask-heading" }, "Sources"));
      var sources = el("ol", { class: "sw-ask-sources" });
      cited.forEach(function (id) {
        var li = el("li", { value: String(ctx.numbers[id]) });
        li.appendChild(el("a", { href: siteUrl(sections[id][0]) }, sections[id][1]));
        sources.appendChild(li);
      });
      results.appendChild(sources);
    }
    results.appendChild(answerActions(turn));
    if (answer.trace_id) { results.appendChild(el("p", { class: "sw-ask-trace" }, "trace " + answer.trace_id)); }
    item.appendChild(results);
    rowAnchors(ctx.rowCites);
    var count_ = Array.isArray(answer.sentences) ? answer.sentences.length : 0;
    if (announce) { status.textContent = (labels[answer.label] || "Answer") + " with " + count(count_, "sentence") + "."; }
  }

  // --- falling back to the site's search index --------------------------------------------
  var STOP = { the: 1, and: 1, for: 1, are: 1, what: 1, how: 1, does: 1, with: 1, that: 1, this: 1, from: 1,
               who: 1, when: 1, which: 1, into: 1, is: 1, of: 1, to: 1, in: 1, a: 1, an: 1, be: 1, do: 1 };

  function terms(question) {
    return question.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(function (word) {
      return word.length > 1 && !STOP[word];
    });
  }

  function search(index, question) {
    var words = terms(question);
    var scored = [];
    (index.docs || []).forEach(function (doc) {
      var title = plain(doc.title).toLowerCase();
      var text = plain(doc.text).toLowerCase();
      var score = 0, matched = 0;
      words.forEach(function (word) {
        var inTitle = title.indexOf(word) >= 0, count = text.split(word).length - 1;
        if (inTitle || count) { matched += 1; }
        score += (inTitle ? 3 : 0) + Math.min(count, 5);
      });
      if (matched) { scored.push({ doc: doc, score: score + 5 * matched + (doc.location.indexOf("#") >= 0 ? 2 : 0), text: plain(doc.text) }); }
    });
    scored.sort(function (a, b) { return b.score - a.score || (a.doc.location < b.doc.location ? -1 : 1); });
    return { words: words, hits: scored.slice(0, 10) };
  }

  function snippet(text, words) {
    var lower = text.toLowerCase(), at = -1;
    words.some(function (word) { at = lower.indexOf(word); return at >= 0; });
    var start = Math.max(0, at - 60);
    return (start ? "\u2026" : "") + text.slice(start, start + 200) + (text.length > start + 200 ? "\u2026" : "");
  }

  function hitDocument(location, map) {
    // "documents/<doc>.html#<section>": the section's document, named as the site names it
    var sid = location.split("#")[1] || "";
    var entry = (map.sections || {})[sid];
    var docs = map.documents || {};
    var docId = entry ? entry[2] : (location.match(/^documents\/([^/#]+)\.html/) || [])[1];
    return docId && docs[docId] ? docs[docId] : null;
  }

  function fallback(question, why) {
    status.textContent = why;
    return fetchJson("search/search_index.json").then(function (index) {
      var found = search(index, question);
      var turn = { question: question, why: why, hits: found.hits.map(function (hit) {
        return { location: hit.doc.location, title: plain(hit.doc.title), snippet: snippet(hit.text, found.words) };
      }) };
      keep(turn);
      return showTurn(turn, true).then(function () { status.textContent = why + " " + count(found.hits.length, "result") + "."; });
    }, function () {
      status.textContent = why + " The site's search index could not be loaded either.";
    });
  }

  function renderHits(item, turn, map) {
    var results = el("div", { class: "sw-ask-results" });
    results.appendChild(el("p", { class: "sw-ask-heading" }, "Search results"));
    var list = el("ol", { class: "sw-ask-hits" });
    (turn.hits || []).forEach(function (hit) {
      var href = siteUrl(hit.location);
      if (!href) { return; }
      var li = el("li");
      var doc = hitDocument(hit.location, map);
      var a = el("a", { href: href, class: "sw-ask-hit" }, hit.title || hit.location);
      if (doc) {
        li.appendChild(el("span", { class: "sw-ask-hitdoc", title: doc[1] }, doc[0]));
        li.appendChild(document.createTextNode(" "));
        a.setAttribute("aria-label", doc[1] + ": " + (hit.title || hit.location));
      }
      li.appendChild(a);
      li.appendChild(el("p", { class: "sw-ask-snippet" }, hit.snippet));
      list.appendChild(li);
    });
    if (!(turn.hits || []).length) { results.appendChild(el("p", {}, "No page of the site matches these words.")); }
    results.appendChild(list);
    var more = siteUrl("index.html?q=" + encodeURIComponent(turn.question));
    if (more) { results.appendChild(el("a", { href: more, class: "sw-ask-more" }, "Open the site search")); }
    item.appendChild(results);
  }

  // --- starting: restore the conversation of this tab -----------------------------------------
  function start() {
    document.body.appendChild(root);
    followUpMode();
    sectionsMap().then(showExamples);
    var restored = Promise.resolve();
    state.turns.forEach(function (turn) { restored = restored.then(function () { return showTurn(turn, false); }); });
    restored.then(function () {
      if (state.turns.length) { status.textContent = "Your conversation continues (" + count(state.turns.length, "earlier question") + ")."; }
      var narrow = window.matchMedia && window.matchMedia("(max-width: 60em)").matches;
      if (state.open && state.turns.length && !(state.followed && narrow)) {
        open(false);
        panel.scrollTop = panel.scrollHeight;  // the latest answer in view
      } else if (state.followed && narrow) {
        toggle.setAttribute("aria-expanded", "false");
        state.open = false;
      }
      state.followed = false;
      save();
    });
  }
  if (document.body) { start(); }
  else { document.addEventListener("DOMContentLoaded", start); }
})();
