"""Check: the claim checker and its code guards, the gate (displayed = checked), the fallback's checked quotes for a
model's failed part, derived verdicts and false premises (``premise``, with ``editions``: which edition brought something in, and
``measure``: which figure a premise and a sentence are about)."""

__all__: list[str] = []
