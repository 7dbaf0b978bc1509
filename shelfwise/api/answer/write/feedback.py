"""Pseudo-relevance feedback for the extractive writer's ranking: the words an obligation's best units share lend
themselves to the rest (``shelfwise.api.answer.write.rank.score_units`` ranks a second time with them)."""

from __future__ import annotations

from collections import Counter

__all__ = ["expansion_terms"]


def expansion_terms(query: dict[str, float], pool, scored: list[tuple[float, float, bool, int]]) -> dict[str, float]:
    """Pseudo-relevance feedback (RM3-style): the words the obligation's ``feedback_units`` best units share, beyond the
    query's own (``feedback_terms`` of them), weighted by how much of those units they make up and how rare they are,
    scaled to ``feedback_weight`` of the query's weight (``pool.tuning``, from ``answer.tuning``). A document says what the question asks in its own words ("installed verbatim", "expanded whenever
    this variable is substituted" for "=" in a question about make's assignment operators): its best sentences lend
    those words to the rest."""
    tuning = pool.tuning
    top = [entry for entry in scored[:tuning.feedback_units] if entry[0] > 0]
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
    chosen = [(t, m) for t, m in mass.most_common() if held[t] >= 2][:tuning.feedback_terms]
    if not chosen:
        return {}
    total = sum(w for t, w in query.items() if not t.startswith("@")) or 1.0
    weights = {t: m * pool.idf.get(t, pool.unseen) for t, m in chosen}
    scale = tuning.feedback_weight * total / (sum(weights.values()) or 1.0)
    return {t: w * scale for t, w in weights.items()}
