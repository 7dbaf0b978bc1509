"""What is read for a question: the plan's obligations, recall, the whole sections read, and whether
they state what an obligation asks for at all.
"""

__all__: list[str] = []
