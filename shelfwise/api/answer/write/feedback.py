"""Pseudo-relevance feedback for the extractive writer's ranking: the words an obligation's best units share lend
themselves to the rest (``shelfwise.api.answer.write.rank.score_units`` ranks a second time with them)."""

from __future__ import annotations

from collections import Counter

__all__ = ["expansion_terms", "FEEDBACK_UNITS", "FEEDBACK_TERMS", "FEEDBACK_WEIGHT"]

FEEDBACK_UNITS = 7
"""Best units of an obligation whose shared words expand its query (``expansion_terms``)."""
FEEDBACK_TERMS = 10
"""Words the feedback adds."""
FEEDBACK_WEIGHT = 0.3
"""The feedback words together weigh this share of the query's own words."""


def expansion_terms(query: dict[str, float], pool, scored: list[tuple[float, float, bool, int]]) -> dict[str, float]:
    """Pseudo-relevance feedback (RM3-style): the words the obligation's best units share, beyond the query's own,
    weighted by how much of those units they make up and how rare they are, scaled to ``FEEDBACK_WEIGHT`` of the
    query's weight. A document says what the question asks in its own words ("installed verbatim", "expanded whenever
    this variable is substituted" for "=" in a question about make's assignment operators): its best sentences lend
    those words to the rest."""
    top = [entry for entry in scored[:FEEDBACK_UNITS] if entry[0] > 0]
    if len(top) < 2:
        return {}
    best = top[0][0]
    mass: Counter = Counter()
    held: Counter = Counter()  # how many of the best units hold the word: a word of one unit is not shared
    for score, _, _, index in top:
        unit = pool.units[index]
        for term, count in unit.tf.items():
            if term.startswith("@") or term in query or len(term) < 3:
                continue
            mass[term] += (score / best) * count / unit.length
            held[term] += 1
    chosen = [(t, m) for t, m in mass.most_common() if held[t] >= 2][:FEEDBACK_TERMS]
    if not chosen:
        return {}
    total = sum(w for t, w in query.items() if not t.startswith("@")) or 1.0
    weights = {t: m * pool.idf.get(t, pool.unseen) for t, m in chosen}
    scale = FEEDBACK_WEIGHT * total / (sum(weights.values()) or 1.0)
    return {t: w * scale for t, w in weights.items()}
