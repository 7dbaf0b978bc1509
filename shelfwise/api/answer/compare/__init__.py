"""Compare questions answered from the computed change set."""

__all__: list[str] = []
