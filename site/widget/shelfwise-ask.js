/*
 * shelfwise ask widget: ask a shelf a question from any page.
 *
 *   <script src="https://docs.example.org/northwind/assets/shelfwise/shelfwise-ask.js"
 *           data-endpoint="http://127.0.0.1:8000" data-shelf="northwind" data-token="..."></script>
 *
 * data-endpoint  the answering API; the widget POSTs {question, shelf} to {endpoint}/api/ask
 *                (empty: the widget only searches the site)
 * data-shelf     the shelf to ask
 * data-token     sent as "Authorization: Bearer TOKEN" (optional; it is public in the page)
 * data-site      the shelf's site root (default: two folders above this script)
 * data-timeout   milliseconds to wait for an answer (default 60000)
 *
 * Answer contract: {answer_markdown, sentences: [{text, citations: [section_id]}], not_covered: [str],
 * label: "complete"|"partial"|"conditional", trace_id}. Citations link through the site's
 * assets/shelfwise/sections.json (section id -> [page URL#anchor, label]). When the endpoint cannot
 * be reached or fails, the widget searches the site's search/search_index.json instead.
 * Server and document text is only ever set with textContent: it is shown, never interpreted.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.__shelfwiseAsk) { return; }
  window.__shelfwiseAsk = true;

  var data = script.dataset;
  var cfg = {
    endpoint: (data.endpoint || "").replace(/\/+$/, ""),
    shelf: data.shelf || "",
    token: data.token || "",
    site: new URL(data.site || "../../", data.site ? location.href : script.src).href,
    timeout: parseInt(data.timeout || "60000", 10)
  };
  var cache = {};

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

  function plain(html) {
    // DOMParser documents are inert: no scripts run, nothing loads.
    return new DOMParser().parseFromString(String(html || ""), "text/html").body.textContent || "";
  }

  // --- the panel -------------------------------------------------------------------------
  var link = el("link", { rel: "stylesheet", href: new URL("shelfwise-ask.css", script.src).href });
  document.head.appendChild(link);
  var root = el("div", { class: "sw-ask" });
  var toggle = el("button", { type: "button", class: "sw-ask-toggle", "aria-expanded": "false",
                              "aria-controls": "sw-ask-panel" }, "Ask");
  var panel = el("div", { id: "sw-ask-panel", class: "sw-ask-panel", role: "dialog", "aria-label": "Ask this shelf" });
  panel.hidden = true;
  var form = el("form", { class: "sw-ask-form", role: "search" });
  var label = el("label", { for: "sw-ask-input", class: "sw-ask-label" }, "Ask a question about " + (cfg.shelf || "this site"));
  var input = el("input", { id: "sw-ask-input", class: "sw-ask-input", type: "text", autocomplete: "off",
                            placeholder: "Type a question, press Enter" });
  var submit = el("button", { type: "submit", class: "sw-ask-submit" }, "Ask");
  var close = el("button", { type: "button", class: "sw-ask-close", "aria-label": "Close" }, "\u00d7");
  var status = el("p", { class: "sw-ask-status", role: "status", "aria-live": "polite" });
  var results = el("div", { class: "sw-ask-results", "aria-live": "polite" });
  form.appendChild(label);
  form.appendChild(input);
  form.appendChild(submit);
  panel.appendChild(close);
  panel.appendChild(form);
  panel.appendChild(status);
  panel.appendChild(results);
  root.appendChild(toggle);
  root.appendChild(panel);

  function open() {
    panel.hidden = false;
    toggle.setAttribute("aria-expanded", "true");
    input.focus();
  }
  function shut() {
    panel.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
    toggle.focus();
  }
  toggle.addEventListener("click", function () { if (panel.hidden) { open(); } else { shut(); } });
  close.addEventListener("click", shut);
  root.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !panel.hidden) { event.preventDefault(); event.stopPropagation(); shut(); }
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var question = input.value.trim();
    if (question) { ask(question); }
  });

  // --- asking ----------------------------------------------------------------------------
  function ask(question) {
    results.textContent = "";
    if (!cfg.endpoint) {
      return fallback(question, "This site has no answering service configured; showing search results.");
    }
    status.textContent = "Asking\u2026";
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, cfg.timeout);
    var headers = { "Content-Type": "application/json", "Accept": "application/json" };
    if (cfg.token) { headers.Authorization = "Bearer " + cfg.token; }
    return fetch(cfg.endpoint + "/api/ask", {
      method: "POST", headers: headers, signal: controller.signal,
      body: JSON.stringify({ question: question, shelf: cfg.shelf })
    }).then(function (response) {
      if (!response.ok) { throw new Error("it answered HTTP " + response.status); }
      return response.json();
    }).then(function (answer) {
      clearTimeout(timer);
      if (!answer || typeof answer !== "object") { throw new Error("its reply was not an answer"); }
      return showAnswer(answer);
    }).catch(function (error) {
      clearTimeout(timer);
      var why = error && error.name === "AbortError" ? "it did not answer in time" : (error && error.message) || "unreachable";
      return fallback(question, "The answering service could not be reached (" + why + "); showing site search results instead.");
    });
  }

  function citationLinks(ids, sections, numbers) {
    var span = el("span", { class: "sw-ask-cites" });
    (Array.isArray(ids) ? ids : []).forEach(function (id) {
      id = String(id);
      if (!(id in numbers)) { numbers[id] = Object.keys(numbers).length + 1; }
      var entry = sections[id];
      var href = entry ? siteUrl(entry[0]) : null;
      var node = href ? el("a", { href: href, class: "sw-ask-cite", title: entry[1] }, "[" + numbers[id] + "]")
                      : el("span", { class: "sw-ask-cite", title: "section " + id }, "[" + id + "]");
      span.appendChild(document.createTextNode(" "));
      span.appendChild(node);
    });
    return span;
  }

  function showAnswer(answer) {
    return fetchJson("assets/shelfwise/sections.json").then(function (map) { return map.sections || {}; },
                                                            function () { return {}; }).then(function (sections) {
      var labels = { complete: "Complete answer", partial: "Partial answer", conditional: "Conditional answer" };
      results.textContent = "";
      results.appendChild(el("p", { class: "sw-ask-label-" + (labels[answer.label] ? answer.label : "unknown") },
                             labels[answer.label] || "Answer"));
      var numbers = {};
      var sentences = Array.isArray(answer.sentences) ? answer.sentences : [];
      var body = el("div", { class: "sw-ask-answer" });
      sentences.forEach(function (sentence) {
        var p = el("p", { class: "sw-ask-sentence" }, sentence && sentence.text);
        p.appendChild(citationLinks(sentence && sentence.citations, sections, numbers));
        body.appendChild(p);
      });
      if (!sentences.length && answer.answer_markdown) {
        body.appendChild(el("p", { class: "sw-ask-plain" }, answer.answer_markdown));
      }
      results.appendChild(body);
      var gaps = Array.isArray(answer.not_covered) ? answer.not_covered : [];
      if (gaps.length) {
        results.appendChild(el("p", { class: "sw-ask-heading" }, "Not covered by the documents"));
        var list = el("ul", { class: "sw-ask-gaps" });
        gaps.forEach(function (line) { list.appendChild(el("li", {}, line)); });
        results.appendChild(list);
      }
      var cited = Object.keys(numbers).filter(function (id) { return sections[id]; });
      if (cited.length) {
        results.appendChild(el("p", { class: "sw-ask-heading" }, "Sources"));
        var sources = el("ol", { class: "sw-ask-sources" });
        cited.forEach(function (id) {
          var item = el("li", { value: String(numbers[id]) });
          item.appendChild(el("a", { href: siteUrl(sections[id][0]) }, sections[id][1]));
          sources.appendChild(item);
        });
        results.appendChild(sources);
      }
      if (answer.trace_id) { results.appendChild(el("p", { class: "sw-ask-trace" }, "trace " + answer.trace_id)); }
      status.textContent = (labels[answer.label] || "Answer") + " with " + sentences.length + " sentence(s).";
    });
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

  function fallback(question, why) {
    status.textContent = why;
    return fetchJson("search/search_index.json").then(function (index) {
      var found = search(index, question);
      results.textContent = "";
      results.appendChild(el("p", { class: "sw-ask-heading" }, "Search results"));
      var list = el("ol", { class: "sw-ask-hits" });
      found.hits.forEach(function (hit) {
        var href = siteUrl(hit.doc.location);
        if (!href) { return; }
        var item = el("li");
        item.appendChild(el("a", { href: href, class: "sw-ask-hit" }, plain(hit.doc.title) || hit.doc.location));
        item.appendChild(el("p", { class: "sw-ask-snippet" }, snippet(hit.text, found.words)));
        list.appendChild(item);
      });
      if (!found.hits.length) { results.appendChild(el("p", {}, "No page of the site matches these words.")); }
      results.appendChild(list);
      var more = siteUrl("index.html?q=" + encodeURIComponent(question));
      if (more) { results.appendChild(el("a", { href: more, class: "sw-ask-more" }, "Open the site search")); }
      status.textContent = why + " " + found.hits.length + " result(s).";
    }, function () {
      status.textContent = why + " The site's search index could not be loaded either.";
    });
  }

  if (document.body) { document.body.appendChild(root); }
  else { document.addEventListener("DOMContentLoaded", function () { document.body.appendChild(root); }); }
})();
