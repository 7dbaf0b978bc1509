"""The settings reference, walked from the pydantic models (shelfwise.compiler.settings): every key of
shelfwise.toml and shelf.toml with its type, bounds, default and description, so the page cannot drift from the code.

A nested model is a TOML table (``[api]``), a list of models an array of tables (``[[api.tokens]]``), a mapping of
models a table per key (``[cost.prices."MODEL"]``); a model added to the tree (``[answer.tuning]``) gets its table
without an edit here.
"""

from __future__ import annotations

import html
import json
import re
import typing
from pathlib import Path

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

__all__ = ["settings_fields", "settings_keys", "settings_reference", "shelf_reference"]

_BOUNDS = (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<"))


def _model_in(annotation) -> tuple[str, type[BaseModel]] | None:
    """('table' | 'array' | 'map', model) when the annotation holds settings of its own."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "table", annotation
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is list and args and isinstance(args[0], type) and issubclass(args[0], BaseModel):
        return "array", args[0]
    if origin is dict and len(args) == 2 and isinstance(args[1], type) and issubclass(args[1], BaseModel):
        return "map", args[1]
    return None


def _type_name(annotation) -> str:
    text = getattr(annotation, "__name__", None) if typing.get_origin(annotation) is None else None
    text = text or str(annotation).replace("typing.", "").replace("pathlib.", "")
    return re.sub(r"(?:\w+\.)+(\w+)", r"\1", text.replace("NoneType", "None"))


def _default(field: FieldInfo) -> str:
    if field.default is PydanticUndefined and field.default_factory is None:
        return "required"
    value = field.default_factory() if field.default_factory is not None else field.default
    if value is None:
        return "unset"
    if isinstance(value, Path):
        return f'`"{value}"`'
    if isinstance(value, BaseModel):
        return "see its table"
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _bounds(field: FieldInfo) -> str:
    found = [f"{sign} {getattr(item, name)}" for item in field.metadata for name, sign in _BOUNDS if hasattr(item, name)]
    return ", ".join(found)


def _cell(text: str) -> str:
    """Text for one table cell: on one line, its pipes escaped, and '<build_dir>' shown, not taken for an HTML tag."""
    return html.escape(" ".join(text.split()), quote=False).replace("|", "\\|")


def _tables(model: type[BaseModel], prefix: str, heading: str, description: str) -> list[str]:
    """One Markdown table for ``model``'s plain keys, then one section per nested model (depth first, in field order)."""
    lines = [f"### `{heading}`" if heading else "### Top level", "", _cell(description), ""] if description or heading else []
    rows, nested = [], []
    for name, field in model.model_fields.items():
        inner = _model_in(field.annotation)
        if inner is not None and inner[0] == "table":
            nested.append((f"{prefix}{name}", f"[{prefix}{name}]", field.description or "", inner[1]))
            continue
        if inner is not None:
            kind, sub = inner
            table = f"[[{prefix}{name}]]" if kind == "array" else f'[{prefix}{name}."KEY"]'
            nested.append((f"{prefix}{name}" + ('."KEY"' if kind == "map" else ""), table, field.description or "", sub))
        kind_text = _type_name(field.annotation) + (f" ({_bounds(field)})" if _bounds(field) else "")
        rows.append(f"| `{prefix}{name}` | {_cell(kind_text)} | {_default(field)} | {_cell(field.description or '')} |")
    if rows:
        lines += ["| key | type | default | what it does |", "|---|---|---|---|", *rows, ""]
    for dotted, table, text, sub in nested:
        lines += _tables(sub, dotted + ".", table, text)
    return lines


def settings_reference() -> str:
    """Every key of shelfwise.toml (``shelfwise.compiler.settings.Settings``), by table."""
    from shelfwise.compiler.settings import Settings

    return "\n".join(_tables(Settings, "", "", ""))


def shelf_reference() -> str:
    """Every key of a shelf's shelf.toml (``shelfwise.compiler.settings.ShelfConfig``)."""
    from shelfwise.compiler.settings import ShelfConfig

    return "\n".join(_tables(ShelfConfig, "", "", "")).replace("### Top level", "### `shelf.toml`")


def settings_fields(model: type[BaseModel] | None = None, prefix: str = "") -> list[tuple[str, FieldInfo]]:
    """(dotted key, field) for every key the reference lists, in its order (tests/test_docs.py checks each is on the page)."""
    if model is None:
        from shelfwise.compiler.settings import Settings

        model = Settings
    found = []
    for name, field in model.model_fields.items():
        inner = _model_in(field.annotation)
        if inner is None or inner[0] != "table":
            found.append((prefix + name, field))
        if inner is not None:
            found += settings_fields(inner[1], prefix + name + ('."KEY".' if inner[0] == "map" else "."))
    return found


def settings_keys() -> list[str]:
    """Every dotted key of shelfwise.toml."""
    return [key for key, _ in settings_fields()]
