"""Check: the claim checker and its code guards, the gate (displayed = checked), the fallback's checked quotes for a
model's failed part, derived verdicts and false premises."""

__all__: list[str] = []
