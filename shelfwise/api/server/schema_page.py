"""The API's documentation at /api/schema: one HTML page drawn from the OpenAPI document, offline.

Litestar's viewers (Redoc, Swagger, Scalar…) load their scripts and fonts
from CDNs and show a blank page without the network. This page is written
on the server from the same OpenAPI document (served as JSON at
``/api/schema/openapi.json``): every route with its summary, security,
parameters, request body and responses, then the body schemas. It loads
nothing: no script, no stylesheet, no font, no image from anywhere.
"""

from __future__ import annotations

import html
from typing import Any

from litestar import Request
from litestar.enums import MediaType
from litestar.openapi.plugins import JsonRenderPlugin, OpenAPIRenderPlugin

__all__ = ["SchemaPage", "schema_plugins", "OPENAPI_JSON", "render_page"]

OPENAPI_JSON = "/api/schema/openapi.json"

_STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45;color:#1b1b1f}
code{font-family:ui-monospace,monospace;background:#f2f2f5;padding:0 .2em}table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{border:1px solid #d0d0d8;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#f2f2f5}
section.op{border-top:2px solid #3f51b5;margin-top:1.5rem}.method{font-weight:700;color:#3f51b5}nav li{margin:.1rem 0}"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _type(schema: dict | None) -> str:
    """A short, readable type: 'string', 'integer ≥ 1', 'AskRequest', 'array of string', 'string or null'."""
    if not schema:
        return "any"
    if "$ref" in schema:
        name = _ref_name(schema["$ref"])
        return f'<a href="#schema-{_e(name)}">{_e(name)}</a>'
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " or ".join(_type(s) for s in schema[key])
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        return " or ".join(_e(k) for k in kind)
    if kind == "array":
        return f"array of {_type(schema.get('items'))}"
    bounds = [_e(f"{sign} {schema[key]}") for key, sign in (("minimum", "≥"), ("maximum", "≤"), ("minLength", "length ≥"),
                                                            ("maxLength", "length ≤")) if key in schema]
    if "enum" in schema:
        bounds.append("one of " + ", ".join(_e(v) for v in schema["enum"]))
    return _e(kind) + (f" ({', '.join(bounds)})" if bounds else "")


def _security(operation: dict, schemes: dict) -> str:
    requirements = operation.get("security")
    if not requirements:
        return "<p>No token needed.</p>"
    names = sorted({name for requirement in requirements for name in requirement})
    optional = any(not requirement for requirement in requirements)
    described = "; ".join(f"<code>{_e(n)}</code>: {_e(schemes.get(n, {}).get('description', ''))}" for n in names)
    return f"<p>{'Token optional' if optional else 'Token required'}: {described}</p>"


def _parameters(operation: dict) -> str:
    rows = "".join(
        f"<tr><td><code>{_e(p['name'])}</code></td><td>{_e(p.get('in', ''))}</td><td>{'yes' if p.get('required') else 'no'}</td>"
        f"<td>{_type(p.get('schema'))}</td><td>{_e(p.get('description', ''))}</td></tr>"
        for p in operation.get("parameters", []))
    if not rows:
        return ""
    return ("<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Required</th><th>Type</th><th>Meaning</th></tr>"
            f"{rows}</table>")


def _body_schema(entry: dict) -> str:
    content = entry.get("content") or {}
    return ", ".join(f"<code>{_e(media)}</code> {_type(spec.get('schema'))}" for media, spec in content.items())


def _responses(operation: dict) -> str:
    rows = "".join(f"<tr><td><code>{_e(code)}</code></td><td>{_e(entry.get('description', ''))}</td><td>{_body_schema(entry)}</td></tr>"
                   for code, entry in sorted(operation.get("responses", {}).items()))
    return f"<h4>Responses</h4><table><tr><th>Status</th><th>Meaning</th><th>Body</th></tr>{rows}</table>"


def _schemas(components: dict) -> str:
    parts = []
    for name, schema in sorted(components.get("schemas", {}).items()):
        required = set(schema.get("required", []))
        rows = "".join(
            f"<tr><td><code>{_e(field)}</code></td><td>{'yes' if field in required else 'no'}</td><td>{_type(spec)}</td>"
            f"<td>{_e(spec.get('description', ''))}</td></tr>" for field, spec in schema.get("properties", {}).items())
        table = (f"<table><tr><th>Field</th><th>Required</th><th>Type</th><th>Meaning</th></tr>{rows}</table>" if rows
                 else f"<p>{_type(schema)}</p>")
        parts.append(f'<h3 id="schema-{_e(name)}">{_e(name)}</h3><p>{_e(schema.get("description", ""))}</p>{table}')
    return "".join(parts)


def render_page(document: dict) -> str:
    """The whole page for an OpenAPI ``document`` (a dict)."""
    info = document.get("info", {})
    schemes = document.get("components", {}).get("securitySchemes", {})
    toc, ops = [], []
    for path, item in sorted(document.get("paths", {}).items()):
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            anchor = f"op-{method}-{path.strip('/').replace('/', '-').replace('{', '').replace('}', '')}"
            title = f'<span class="method">{_e(method.upper())}</span> <code>{_e(path)}</code>'
            toc.append(f'<li><a href="#{_e(anchor)}">{title}</a> {_e(operation.get("summary", ""))}</li>')
            body = operation.get("requestBody")
            request = f"<h4>Request body</h4><p>{_body_schema(body)}</p>" if body else ""
            ops.append(f'<section class="op" id="{_e(anchor)}"><h3>{title}</h3><p>{_e(operation.get("summary", ""))}</p>'
                       f'<p>{_e(operation.get("description", ""))}</p>{_security(operation, schemes)}{_parameters(operation)}'
                       f"{request}{_responses(operation)}</section>")
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{_e(info.get("title", "API"))} API</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_STYLE}</style></head><body>'
            f'<h1>{_e(info.get("title", "API"))} {_e(info.get("version", ""))}: the API</h1>'
            f'<p>The machine-readable document: <a href="{OPENAPI_JSON}"><code>{OPENAPI_JSON}</code></a> (OpenAPI '
            f'{_e(document.get("openapi", ""))}). Send the token as <code>Authorization: Bearer TOKEN</code>.</p>'
            f'<nav><h2>Routes</h2><ul>{"".join(toc)}</ul></nav><h2>Each route</h2>{"".join(ops)}'
            f'<h2>Bodies</h2>{_schemas(document.get("components", {}))}</body></html>')


class SchemaPage(OpenAPIRenderPlugin):
    """Serves ``render_page`` at the OpenAPI root (/api/schema)."""

    def __init__(self) -> None:
        super().__init__(path="/", media_type=MediaType.HTML)

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        return render_page(openapi_schema).encode("utf-8")


def schema_plugins() -> list[OpenAPIRenderPlugin]:
    """The page at /api/schema and the JSON at /api/schema/openapi.json; no CDN-backed viewer."""
    return [SchemaPage(), JsonRenderPlugin(path="/openapi.json")]
