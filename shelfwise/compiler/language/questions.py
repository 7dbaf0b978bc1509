"""Question words: the words of a question that say what kind of answer is wanted, not what it is about.

Read where a question's own words are weighed (``shelfwise.api.terms`` leaves their stems out of a question's
stems; the planner and the evidence test skip them: ``shelfwise.api.answer.plan``, ``shelfwise.api.answer.read``). The words are English.
"""

from __future__ import annotations

__all__ = ["QUESTION_WORDS"]

QUESTION_WORDS = frozenset(
    """what whats which who whom whose when where why how does do did is are was were can could should must may might
    will would shall please tell describe explain list give show name according documents document say says said
    about also other one ones same then there their them they it its this that these those between mean means
    happen happens kind kinds type types thing things way ways much many often long soon quickly fast
    exactly currently still ever always now actually really any some else""".split()
)
"""Words a question uses to ask ("what", "must", "describe", "according"), lower case."""
