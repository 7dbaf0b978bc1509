"""docling's standard PDF pipeline (layout and table models), for when its weights are on disk.

The weights cannot be fetched from here (see FACTS.md), so ``pdf.read`` calls
this route only when ``ReadOptions.docling_artifacts_path`` names an existing
folder; ``elements_from_document`` maps any DoclingDocument to our element
stream and is shared by nothing else, so it lives here with its one caller.
"""

from __future__ import annotations

import io
from importlib.metadata import version
from pathlib import Path
from typing import Any

from shelfwise.compiler.errors import ConversionError
from shelfwise.compiler.store.records import Converted, Element, table_text

__all__ = ["read", "elements_from_document"]


def _page(item: Any) -> int | None:
    provenance = getattr(item, "prov", None) or []
    return provenance[0].page_no if provenance else None


def _png(image: Any) -> bytes | None:
    if image is None:
        return None
    image.thumbnail((800, 800))
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def elements_from_document(document: Any) -> list[Element]:
    """A DoclingDocument's body as elements in reading order (furniture such as page headers excluded)."""
    from docling_core.types.doc import (
        CodeItem,
        ListItem,
        PictureItem,
        SectionHeaderItem,
        TableItem,
        TextItem,
        TitleItem,
    )

    elements: list[Element] = []
    for item, _depth in document.iterate_items():
        page = _page(item)
        if isinstance(item, TitleItem):
            elements.append(Element(kind="heading", text=item.text, level=1, page=page))
        elif isinstance(item, SectionHeaderItem):
            elements.append(Element(kind="heading", text=item.text, level=item.level, page=page))
        elif isinstance(item, TableItem):
            grid = [[cell.text for cell in row] for row in item.data.grid]
            if grid:
                header = sum(1 for row in item.data.grid if row and all(cell.column_header for cell in row)) or 1
                elements.append(Element(kind="table", rows=grid, header_rows=header, page=page, text=table_text(grid),
                                        name=item.caption_text(document) or None))
        elif isinstance(item, PictureItem):
            caption = item.caption_text(document)
            elements.append(Element(kind="figure", text=caption, page=page, image=_png(item.get_image(document))))
        elif isinstance(item, ListItem):
            elements.append(Element(kind="list_item", text=item.text, page=page))
        elif isinstance(item, CodeItem):
            elements.append(Element(kind="code", text=item.text, page=page))
        elif isinstance(item, TextItem) and item.text.strip():
            if elements and elements[-1].kind == "figure" and item.label == "caption":
                continue  # already the figure's caption
            elements.append(Element(kind="paragraph", text=item.text, page=page))
    return elements


def read(path: Path, artifacts_path: Path) -> Converted:
    """Convert with docling's standard PDF pipeline using the weights under ``artifacts_path``."""
    from shelfwise.compiler.offline import prepare

    prepare()
    from docling.datamodel.base_models import InputFormat
    from docling.datamodel.pipeline_options import PdfPipelineOptions
    from docling.document_converter import DocumentConverter, PdfFormatOption

    options = PdfPipelineOptions(artifacts_path=str(artifacts_path), do_ocr=False, generate_picture_images=True, images_scale=1.0)
    converter = DocumentConverter(format_options={InputFormat.PDF: PdfFormatOption(pipeline_options=options)})
    try:
        result = converter.convert(path, raises_on_error=True)
    except Exception as exc:  # docling wraps model and backend failures in several types
        raise ConversionError(f"docling could not convert the PDF ({type(exc).__name__}: {exc}); check the weights in {artifacts_path}") from exc
    document = result.document
    elements = elements_from_document(document)
    title = next((e.text for e in elements if e.kind == "heading"), path.stem)
    return Converted(
        title=title,
        elements=elements,
        pages=document.num_pages(),
        reader="docling-standard",
        reader_version=f"docling {version('docling')}",
    )
