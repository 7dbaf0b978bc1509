"""The assertion ledger: each section's definitions, rules, findings, steps, dependencies and supersessions, by rules
(rules.py) or by a model (model.py), with each section's open references (hooks.py); extract.py runs it per changed
document and keeps it in the store. The links stage resolves the hooks and reads the ledger.
"""

__all__: list[str] = []
