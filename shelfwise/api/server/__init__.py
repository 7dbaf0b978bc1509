"""Serving: the Litestar app and its routes (ask, OpenAI-compatible, compare, sites, schema), tenants,
request hygiene, uvicorn, and the MCP server.
"""

__all__: list[str] = []
