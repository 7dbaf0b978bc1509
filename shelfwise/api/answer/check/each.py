"""One against each: the premise says one thing serves them all ("runs all lines of a recipe in a single shell"), the
sentence that each gets its own ("executed by invoking a new sub-shell for each line of the recipe"). Only against all:
the premise says only some of a thing ("-B rebuilds only the targets that are out of date"), the sentence all of them
("-B: Consider all targets out-of-date"). The first against the last: the premise says a thing is at one end of its
series ("builds the last target in the makefile"), the sentence that it is at the other ("the goal is the first target
in the makefile"). The preferred against the rejected: the premise prefers one thing to another ("call the literal
command make rather than the MAKE variable"), the sentence the other way round ("use the variable MAKE, not the
explicit command name make"). Together against one at a time: the premise says several of a thing happen at once ("make
normally runs several recipes at once"), the sentence that only one of them does at a time ("Normally, make will
execute only one recipe at a time"). In turn against interleaved: the premise says its subject does one thing first and
only then another ("ReAct runs all of its reasoning first and only then takes actions"), the sentence that it does both
interleaved ("generate both reasoning traces and task-specific actions in an interleaved manner").

The thing is the same (every stem of the premise's "shell" in the sentence's "sub-shell"), and the sentence states no
condition ("if", "provided that"; a "when" says when it happens) but an exception after what it says ("..., unless the
.ONESHELL special target is in effect": what holds by default). The caller reads them only in a sentence that holds
enough of the premise's content words with its document's identity and its section's headings (``modality.holds_share``:
"make" is the manual's name). The words are English.
"""

from __future__ import annotations

import re

from shelfwise.api.answer.check.about import About
from shelfwise.api.answer.check.measure import content_words
from shelfwise.api.answer.check.modality import held_with_identity
from shelfwise.api.terms import word_stems
from shelfwise.compiler.language.numbers import CARDINALS, alternation
from shelfwise.compiler.language.polarity import NEGATED

__all__ = ["one_for_each", "only_against_all", "first_against_last", "preference_reversed", "together_against_in_turn",
           "in_turn_against_interleaved", "first_act_reversed", "many_against_only_one", "repeated_against_once",
           "only_one_kind_against_another",
           "winner_reversed", "comparison_reversed", "order_reversed"]

_ONE = re.compile(r"\b(?:a|one)\s+single\s+(?P<thing>[\w-]+)|\b(?:one|the same)\s+(?P<same>[\w-]+)\s+for\s+(?:all|every|each)\b"
                  r"|\b(?:all|every)\b[^,;]*?\b(?:in|with|by|through|using|under)\s+(?:one|the\s+same|a\s+shared)\s+(?P<shared>[\w-]+)", re.I)
_EACH = re.compile(r"\b(?:a|an|one)\s+(?:new|separate|different|distinct|fresh)\s+(?P<thing>[\w-]+)\s+(?:for|per)\s+(?:each|every)\b"
                   r"|\b(?:each|every)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:has|gets|uses|needs|runs in)\s+its\s+own\s+(?P<own>[\w-]+)", re.I)
_EXCEPTION = re.compile(r",?\s+unless\b.*$", re.I)
_CONDITION = re.compile(r"\b(?:if|unless|provided that|in case|whether|except)\b", re.I)
"""A condition on what the sentence says; "When it is time to execute recipes" says when it happens, not whether."""


def _plain(premise: str, sentence: str) -> bool:
    """Whether the premise denies nothing and the sentence states no condition (but an exception after what it says)
    and denies nothing: what the count and order checks ask of both."""
    return not (NEGATED.search(premise) or _CONDITION.search(_EXCEPTION.sub("", sentence)) or NEGATED.search(sentence))


def one_for_each(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise's one thing for all is, in the
    sentence, a new or separate one for each."""
    one = _ONE.search(premise)
    if one is None or NEGATED.search(premise):
        return ""
    said = _EXCEPTION.sub("", sentence)  # what holds unless the exception is in effect
    if _CONDITION.search(said) or NEGATED.search(said):
        return ""
    thing = set(word_stems(one.group("thing") or one.group("same") or one.group("shared")))
    for each in _EACH.finditer(said):
        if thing and thing <= set(word_stems(each.group("thing") or each.group("own"))):
            return "the documents say each has its own"
    return ""


_ONLY = re.compile(r"\bonly\s+(?!(?:if|when|where|whenever|after|before|once|one|a|an)\b)(?:[a-z]+s\s+(?=the\b|those\b))?"
                   r"(?:the\s+|those\s+)?(?P<thing>[\w-]+)", re.I)
""""only the targets", "only remakes the targets" (a verb before its object is skipped): the thing said to be the only one."""
_ONLY_WORD = re.compile(r"\bonly\b", re.I)
_SOME_OR = re.compile(r"\b(?:some|any|none|one)\s+or\s+$", re.I)
"""What makes "all" one choice of several ("for some or all targets")."""
_ALL = re.compile(r"\b(?:all|every)\s+(?:of\s+)?(?:the\s+)?(?P<thing>[\w-]+)", re.I)


def only_against_all(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise's "only the targets ..." is, in the
    sentence, "all targets" (the same thing, stem for stem) of which it says what the premise says of them ("that are out
    of date": "Consider all targets out-of-date"), the sentence neither denying it nor stating a condition."""
    only = _ONLY.search(premise)
    if only is None or NEGATED.search(premise):
        return ""
    if _CONDITION.search(sentence) or NEGATED.search(sentence) or _ONLY_WORD.search(sentence):
        return ""  # "a second expansion of the prerequisites (only) for some or all targets" says only too
    said = content_words(re.split(r"[,;:]", premise[only.end():])[0])  # what the premise says of them ("that are out of date")
    if said and not said <= content_words(sentence):
        return ""  # "output from all the targets built by ... are grouped together" is not said of the same targets
    thing = set(word_stems(only.group("thing")))
    if thing and any(thing == set(word_stems(every.group("thing"))) and not _SOME_OR.search(sentence[:every.start()])
                     for every in _ALL.finditer(sentence)):
        return "the documents say all of them"
    return ""


_ENDS = [("first", "last"), ("earliest", "latest"), ("oldest", "newest"), ("leftmost", "rightmost"), ("topmost", "bottommost")]
"""The two ends of a series: a thing at one is not at the other."""
_END = re.compile(r"\b(?:the|its|their|his|her|our|your|this|that|whose)\s+(?P<end>" + "|".join(w for pair in _ENDS for w in pair)
                  + r")\s+(?P<thing>[A-Za-z][\w-]*)", re.I)
"""An end said of a thing ("the last target", "its first line"): after a determiner, so not a verb ("tokens last ten
minutes") nor an adverb ("make first reads the makefiles")."""
_OTHER_END = {a: b for pair in _ENDS for a, b in (pair, pair[::-1])}


_DENIED_BEFORE = re.compile(r"\b(?:not|never|nor|neither)\s+(?:\w+\s+)?$|n't\s+(?:\w+\s+)?$", re.I)
"""A denial just before an end ("is not the first target", "isn't always the last")."""


def _ends(text: str) -> set[tuple[str, str]]:
    """(end, stem of the thing) of each end said of a thing and not denied."""
    return {(m.group("end").lower(), stem) for m in _END.finditer(text) for stem in word_stems(m.group("thing"))[:1]
            if stem in content_words(m.group("thing")) and not _DENIED_BEFORE.search(text[:m.start()])}


def first_against_last(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise puts a thing at one end ("the last
    target"), the sentence the same thing, stem for stem, at the other ("the first target") and nowhere at the premise's
    end; an end denied ("not the first target") says neither."""
    said = _ends(sentence)
    for end, thing in _ends(premise):
        if (_OTHER_END[end], thing) in said and (end, thing) not in said:
            return "the documents say it is at the other end"
    return ""


_WORD = r"[\w'`‘’*-]+"
"""A word as the preference patterns read it, with the code and quote marks a reader keeps around a name (`MAKE`,
‘make’, *name*): one sentence read from a PDF and from Texinfo source says the same."""
_PREFERS = re.compile(rf"(?P<kept>(?:{_WORD}\s+){{0,4}}{_WORD})\s*,?\s+(?:rather than|instead of|in place of)\s+(?P<left>[^,;:.?()]+)", re.I)
"""What a premise prefers, and to what: the (up to five) words before "rather than", and what follows it."""
_PREFERRED = re.compile(rf"(?P<kept>(?:{_WORD}\s+){{0,4}}{_WORD})\s*,?\s+(?:not|rather than|instead of|in place of)\s+"
                        r"(?P<left>[^,;:.?()]+)", re.I)
"""What a sentence prefers, and to what: "use the variable MAKE, not the explicit command name make"."""


def preference_reversed(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): what the premise prefers a thing to (every content
    word of it) is what the sentence prefers, and not what it sets aside; what the sentence sets aside holds a word only
    the premise's preferred thing has, which the sentence's preferred thing does not."""
    for mine in _PREFERS.finditer(premise):
        kept, left = content_words(mine.group("kept")), content_words(mine.group("left"))
        own = kept - left  # "literal", "command": what the premise's choice has that the other lacks
        if not left or not own:
            continue
        for theirs in _PREFERRED.finditer(sentence):
            chosen, rejected = content_words(theirs.group("kept")), content_words(theirs.group("left"))
            if left <= chosen and not left <= rejected and own & rejected and not own & chosen:
                return "the documents prefer it the other way round"
    return ""


_TOGETHER = re.compile(r"\b(?:several|many|multiple|all(?:\s+(?:of\s+)?(?:the|its|their))?|two or more)\s+(?P<thing>[\w-]+)"
                       r"(?:\s+[\w-]+){0,3}?\s+(?:at once|at the same time|simultaneously|concurrently|in parallel)\b", re.I)
"""Several of a thing said to happen together: "runs several recipes at once", "all jobs in parallel"."""
_ONE_AT_A_TIME = re.compile(r"\bonly\s+(?:one|a single)\s+(?P<thing>[\w-]+)\s+at\s+a\s+time\b", re.I)


def together_against_in_turn(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says several of a thing happen at
    once, the sentence that only one of the same thing (stem for stem) does at a time, stating no condition and denying
    nothing; a premise denying it itself ("does not run several jobs at once") is left alone."""
    together = _TOGETHER.search(premise)
    if together is None or not _plain(premise, sentence):
        return ""
    thing = set(word_stems(together.group("thing")))
    if thing and any(thing == set(word_stems(one.group("thing"))) for one in _ONE_AT_A_TIME.finditer(sentence)):
        return "the documents say one at a time"
    return ""


_FIRST_THEN = re.compile(r"\b(?P<first>(?:[\w-]+\s+){0,3}[\w-]+)\s+first\b[^.;:?]*?\b(?:(?:and|,)\s+)?(?:only\s+)?then\s+"
                         r"(?P<then>[^,;:.?()]+)", re.I)
"""One thing first, then another: "runs all of its reasoning first and only then takes actions"."""
_INTERLEAVED = re.compile(r"\binterleav\w*|\balternat(?:es|ing|ely)\b|\bin turns?\b|\bback and forth\b", re.I)


def _subject(text: str) -> set[str]:
    """The content words of what comes before an order ("ReAct runs" of "ReAct runs all of its reasoning first"), its
    last word (the verb) left out."""
    return content_words(" ".join(text.split()[:-1]))


def in_turn_against_interleaved(premise: str, sentence: str, about: About | None) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says its subject does one thing first
    and only then another, the sentence that the two are interleaved (or alternate), holding a content word of each and
    (with its document's identity and its section's headings) what the premise names before its verb; it states no
    condition and denies nothing, nor does the premise deny it. Read before the share of the premise's words a sentence
    must hold: the premise's order words ("first", "only then") are what the sentence does not say."""
    order = _FIRST_THEN.search(premise)
    if order is None or NEGATED.search(premise) or not _INTERLEAVED.search(sentence) or _CONDITION.search(sentence) \
            or NEGATED.search(sentence) or not _subject(premise[:order.start()]) <= held_with_identity(sentence, about):
        return ""
    held = content_words(sentence)
    first, then = content_words(order.group("first")), content_words(order.group("then"))
    if first - then and then - first and (first - then) & held and (then - first) & held:
        return "the documents say the two are interleaved"
    return ""


_FIRST_DONE = re.compile(r"(?<!\bthe )(?<!\ba )(?<!\bits )(?<!\btheir )\bfirst\b(?P<rest>[^.;:?]*)", re.I)
"""A sentence's "first" as an adverb ("HyDE first instructs ... to generate"), not an ordinal ("the first target")."""
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|cf|etc|vs)\.", re.I)
"""An abbreviation's full stop ("(e.g. InstructGPT)"), which ends no clause."""


def first_act_reversed(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says its subject does one thing first
    and only then another ("HyDE retrieves documents first and only then generates a hypothetical document"), the
    sentence that it first does the other ("HyDE first instructs ... to generate a hypothetical document"): after the
    sentence's "first" the first word of either act is the premise's later act's. What the sentence names before its
    "first" (its subject) counts for neither act; it states no condition and denies nothing, nor does the premise."""
    order = _FIRST_THEN.search(premise)
    if order is None or NEGATED.search(premise) or _CONDITION.search(sentence) or NEGATED.search(sentence):
        return ""
    first, then = content_words(order.group("first")), content_words(order.group("then"))
    sentence = _ABBREVIATION.sub(" ", sentence)  # "(e.g. InstructGPT)" ends no clause
    for done in _FIRST_DONE.finditer(sentence):
        subject = content_words(sentence[:done.start()])
        earlier, later = first - then - subject, then - first - subject
        if not earlier or not later:
            continue
        for word in re.findall(r"[\w-]+", done.group("rest")):
            stems = set(word_stems(word))
            if stems & earlier:
                break
            if stems & later:
                return "the documents say it does the other first"
    return ""


_MANY = re.compile(rf"\b(?:{alternation(set(CARDINALS) - {'zero', 'one'})}|[2-9]|several|multiple|more than one)\s+"
                   r"(?P<thing>(?:[\w-]+\s+){0,3}?[\w-]+?s)\b", re.I)
"""Several of a thing: "take two type variable tuples", "several base classes"."""
_ONLY_ONE = re.compile(r"\b(?:only\s+(?:one|a single)|at most one|no more than one)\s+(?P<thing>(?:[\w-]+\s+){0,3}?[\w-]+)\s+"
                       r"(?:may|can|is allowed|is permitted|shall|must)\b", re.I)
"""Only one of a thing allowed: "only a single type variable tuple may appear in a type parameter list"."""


def many_against_only_one(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says there are several of a thing
    ("lets a generic class take two type variable tuples"), the sentence that only one of it may be ("only a single type
    variable tuple may appear in a type parameter list"): every content word of the premise's thing in the sentence's,
    the last one (its head) the same; it states no condition and denies nothing, nor does the premise."""
    if not _plain(premise, sentence):
        return ""
    for many in _MANY.finditer(premise):
        thing = content_words(many.group("thing"))
        head = set(word_stems(many.group("thing").split()[-1]))
        for one in _ONLY_ONE.finditer(sentence):
            theirs = one.group("thing")
            if thing and head and thing <= content_words(theirs) and head <= set(word_stems(theirs.split()[-1])):
                return "the documents say only one"
    return ""


_REPEATEDLY = re.compile(r"\b(?:as\s+many\s+times\s+as|(?:several|many|multiple|numerous|repeated|any\s+number\s+of)\s+times|"
                         r"more\s+than\s+once|repeatedly|again\s+and\s+again|over\s+and\s+over)\b", re.I)
"""A thing done again and again: "accept the same OTP as many times as it is entered", "use the code more than once"."""
_ONCE = re.compile(r"\b(?:only|just|exactly|at\s+most|no\s+more\s+than)\s+once\b", re.I)
_NOT_AGAIN = re.compile(r"\b(?:MUST|SHALL|must|shall|may|can)\s*(?:NOT|not)\b[^.;:]*?\bmore\s+than\s+once\b")
"""Done once at most: "SHALL accept a given time-based OTP only once", "MUST NOT use the authorization code more than once"."""


def repeated_against_once(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says a thing is done again and again
    ("lets a verifier accept the same time-based OTP as many times as it is entered"), the sentence that it is done once
    at most ("verifiers SHALL accept a given time-based OTP only once"; "MUST NOT use the authorization code more than
    once"): the last content word before the premise's repetition (what is repeated: "OTP") and another of those words
    (the act: "accept") stand in the sentence before its "once"; neither states a condition, and the premise denies nothing."""
    repeated = _REPEATEDLY.search(premise)
    if repeated is None or NEGATED.search(premise) or _CONDITION.search(_EXCEPTION.sub("", sentence)):
        return ""
    once = _ONCE.search(sentence)
    if once is None and (not_again := _NOT_AGAIN.search(sentence)) is not None:
        once = not_again
    elif once is None or NEGATED.search(sentence):
        return ""
    done = [w for w in premise[:repeated.start()].split()[-8:] if content_words(w)]
    said = content_words(" ".join(sentence[:once.end()].split()[-14:]))
    if len(done) < 2 or not content_words(done[-1]) <= said or len(content_words(" ".join(done)) & said) < 2:
        return ""
    return "the documents say once"


_ONLY_BY = re.compile(r"\b(?P<thing>(?:[\w-]+\s+){1,4}?)(?:MUST|SHALL|must|shall|may|can)\s+only\s+be\s+[a-z]+(?:ed|en|wn)\s+(?:by|to|for)\s+"
                      r"(?:the\s+|a\s+|an\s+)?(?P<kind>[a-z][\w-]*)\s+(?P<head>[a-z][\w-]*?)s?\b")
"""A thing kept for one kind of a party: "The client credentials grant type MUST only be used by confidential clients"."""
_KIND_OF = r"\b(?P<kind>[a-z][\w-]*)\s+{head}s?\b"
_NO_KIND = frozenset(word_stems("such other any every each all some same own their its our your his her that this those these"))


def only_one_kind_against_another(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the sentence keeps a thing for one kind of a party
    ("The client credentials grant type MUST only be used by confidential clients"), the premise gives it to another kind of
    that party ("allows a public client ... to use the client credentials grant"): the premise names the party by the
    sentence's head word ("client") with another word before it that the sentence does not hold ("public"), and holds the
    sentence's thing but at most one of its words ("client credentials grant" of "The client credentials grant type"); it
    states no condition and denies nothing, nor does the premise."""
    if not _plain(premise, sentence):
        return ""
    for only in _ONLY_BY.finditer(sentence):
        thing = content_words(only.group("thing"))
        if len(thing) < 2 or len(thing - content_words(premise)) > 1:
            continue
        kind, head = only.group("kind"), only.group("head")
        said = content_words(sentence)
        for other in re.finditer(_KIND_OF.format(head=re.escape(head)), premise):
            theirs = set(word_stems(other.group("kind")))
            if theirs and not theirs & (said | _NO_KIND) and theirs == content_words(other.group("kind")) and kind != other.group("kind"):
                return f"the documents say only {kind} {head}s"
    return ""


_PHRASE = r"(?:[\w-]+\s+){0,3}?[\w-]+"
_BEATS = (r"(?:\w+ly\s+)?(?:beat|beats|outperform(?:s|ed)?|surpass(?:es|ed)?|(?:did|does|do|performs?|performed|works?|worked)\s+better\s+than|"
          r"(?:is|was|are|were)\s+(?:better|superior)\s+(?:than|to))")
_WINS = re.compile(rf"(?:^|\b(?:the|that|whether|found|shows?|showed)\s+)(?P<winner>{_PHRASE})\s+{_BEATS}\s+(?:the\s+)?(?P<loser>{_PHRASE})"
                   r"(?=\s+(?:on|in|for|at|with|across|by|when|over|under)\b|\s*[,.;?]|\s*$)", re.I)
"""One of two named things said to beat the other: "found that tree traversal consistently beat the collapsed tree on QASPER"."""
_BETTER = re.compile(rf"^(?:the\s+)?(?P<winner>{_PHRASE})\s+(?:\w+ly\s+)?(?:performs|performed|works|worked|does|did|is|was)\s+better\b"
                     rf"(?:\s+than\s+(?:the\s+)?(?P<loser>{_PHRASE}))?|^(?:the\s+)?(?P<first>{_PHRASE})\s+{_BEATS}\s+(?:the\s+)?(?P<second>{_PHRASE})\b",
                     re.I)
"""A sentence naming what does better: "The collapsed tree approach consistently performs better.", "Self-RAG outperforms
ChatGPT on ..."."""


def winner_reversed(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says one thing beat another ("tree
    traversal consistently beat the collapsed tree"), the sentence that the other does better ("The collapsed tree approach
    consistently performs better"): every content word of the premise's loser is in the sentence's winner, and the
    sentence's winner is not the premise's winner nor its loser the premise's loser; neither denies anything and the
    sentence states no condition."""
    if not _plain(premise, sentence):
        return ""
    said = _BETTER.match(sentence.strip())
    if said is None:
        return ""
    winner = content_words(said.group("winner") or said.group("first"))
    loser = content_words(said.group("loser") or said.group("second") or "")
    for claim in _WINS.finditer(premise):
        theirs, beaten = content_words(claim.group("winner")), content_words(claim.group("loser"))
        if beaten and beaten <= winner and not theirs <= winner and not (loser and beaten <= loser):
            return "the documents say the other does better"
    return ""


_TRAILS = (r"(?:\w+ly\s+)?(?:lags?\s+behind|lagged\s+behind|falls?\s+behind|fell\s+behind|trails?|trailed|underperform(?:s|ed)?|"
           r"(?:did|does|do|performs?|performed|works?|worked)\s+worse\s+than|(?:is|was|are|were)\s+(?:worse\s+than|inferior\s+to|"
           r"outperformed\s+by|beaten\s+by|surpassed\s+by))")
_COMPARED = re.compile(rf"(?P<verb>{_BEATS}|(?P<trails>{_TRAILS}))\s+(?:the\s+)?(?P<other>it|them|(?:[\w-]+\s+){{0,2}}?[\w-]+?)"
                       r"\s+(?:on|in|at|across)\s+(?:the\s+)?(?P<scope>[\w-]+)", re.I)
"""One thing said to do better (or worse) than another on a named benchmark: "beat chain-of-thought prompting on
HotpotQA", "slightly lags behind CoT on HotpotQA"."""
_CLAUSES = re.compile(r",?\s+(?:but|and|while|whereas|yet|although)\s+|;\s*|,\s+", re.I)
_SUBJECT_WORDS = re.compile(r"[\w-]+")
_NOT_SUBJECT = frozenset("the a an that found finds shows showed show on other hand however in contrast also while whereas".split())


def _claims(text: str) -> list[tuple[str, str, str]]:
    """(winner, loser, benchmark) of each comparison ``text`` states, a clause without its own subject or with "it"
    taking them from the clause before ("ReAct beat X on A but fell behind it on B")."""
    out: list[tuple[str, str, str]] = []
    subject, other = "", ""
    for clause in _CLAUSES.split(text):
        said = _COMPARED.search(clause)
        if said is None:
            continue
        words = [w for w in _SUBJECT_WORDS.findall(clause[:said.start()]) if w.lower() not in _NOT_SUBJECT][-3:]
        subject = " ".join(words) or subject
        other = other if said.group("other").lower() in ("it", "them") else said.group("other")
        if not subject or not other:
            continue
        pair = (other, subject) if said.group("trails") else (subject, other)
        out.append((*pair, said.group("scope")))
    return out


def _same_name(one: str, two: str) -> bool:
    """Whether two names of a compared thing are one: the same content words, one's within the other's, or one the
    initials of the other's first words ("CoT" of "chain-of-thought prompting")."""
    a, b = content_words(one), content_words(two)
    if a and b and (a <= b or b <= a):
        return True
    for short, long in ((one, two), (two, one)):
        initials = "".join(w[0] for w in re.split(r"[\s-]+", long.lower()) if w)
        if re.fullmatch(r"[A-Za-z]{2,6}", short) and any(c.isupper() for c in short[1:]) \
                and initials.startswith(short.lower()):
            return True
    return False


def comparison_reversed(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says one thing did better than another
    on a named benchmark ("ReAct beat chain-of-thought prompting on HotpotQA"), the sentence that the other did better on
    that benchmark ("ReAct ... slightly lags behind CoT on HotpotQA"): the same two things (``_same_name``) and the same
    benchmark, the winner reversed; neither denies anything and the sentence states no condition."""
    if not _plain(premise, sentence):
        return ""
    stated = _claims(sentence)
    for winner, loser, scope in _claims(premise):
        for their_winner, their_loser, their_scope in stated:
            if set(word_stems(scope)) == set(word_stems(their_scope)) and _same_name(winner, their_loser) and _same_name(loser, their_winner):
                return "the documents say the other does better"
    return ""


def order_reversed(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` by how many, which end or which order ('' when it does not): the first
    of ``one_for_each``, ``only_against_all``, ``first_against_last``, ``preference_reversed``,
    ``together_against_in_turn``, ``first_act_reversed``, ``only_one_kind_against_another`` and ``winner_reversed``
    that finds it. ``many_against_only_one`` and ``comparison_reversed`` are not among them: the premise check reads them
    on every candidate, whatever share of the premise's words it holds (``shelfwise.api.answer.check.premise``)."""
    for check in (one_for_each, only_against_all, first_against_last, preference_reversed, together_against_in_turn, first_act_reversed,
                  only_one_kind_against_another, winner_reversed):
        why = check(premise, sentence)
        if why:
            return why
    return ""
