"""The draft answer, written and checked: the extractive and model writers and their ranking, the
claims, the checker and its code guards, the gate, derived verdicts and false premises.
"""

__all__: list[str] = []
