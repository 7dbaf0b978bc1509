"""Research mode: the agent's loop and tools, and the model-free expansion."""

__all__: list[str] = []
