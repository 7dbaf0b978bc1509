"""Figures for the Northwind documents, drawn by code with Pillow into PNG bytes (no timestamps)."""

from __future__ import annotations

import io
import math
from collections import Counter

from PIL import Image, ImageDraw, ImageFont

INK = (33, 47, 61)
BLUE = (214, 228, 242)
AMBER = (252, 228, 190)
GREEN = (214, 238, 214)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _box(draw: ImageDraw.ImageDraw, xy: tuple[int, int, int, int], text: str, fill: tuple[int, int, int]) -> None:
    draw.rounded_rectangle(xy, radius=12, fill=fill, outline=INK, width=3)
    _centred(draw, xy, text)


def _centred(draw: ImageDraw.ImageDraw, xy: tuple[int, int, int, int], text: str) -> None:
    font = _font(22)
    lines = text.split("\n")
    heights = [draw.textbbox((0, 0), line, font=font)[3] for line in lines]
    y = (xy[1] + xy[3]) // 2 - (sum(heights) + 6 * (len(lines) - 1)) // 2
    for line, height in zip(lines, heights):
        width = draw.textlength(line, font=font)
        draw.text(((xy[0] + xy[2]) // 2 - width // 2, y), line, fill=INK, font=font)
        y += height + 6


def _arrow(draw: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int]) -> None:
    draw.line([start, end], fill=INK, width=3)
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    back = (end[0] - 16 * ux, end[1] - 16 * uy)
    head = [end, (round(back[0] - 9 * uy), round(back[1] + 9 * ux)), (round(back[0] + 9 * uy), round(back[1] - 9 * ux))]
    draw.polygon(head, fill=INK)


def triage_png() -> bytes:
    """Flowchart of SOP-014 step 4: the reportability decision for a new complaint."""
    image = Image.new("RGB", (1000, 820), "white")
    draw = ImageDraw.Draw(image)
    _box(draw, (330, 20, 670, 110), "Complaint recorded\n(SOP-014 steps 1-3)", BLUE)
    _arrow(draw, (500, 110), (500, 170))
    diamond = [(500, 170), (740, 300), (500, 430), (260, 300)]
    draw.polygon(diamond, fill=AMBER, outline=INK, width=3)
    _centred(draw, (300, 240, 700, 360), "Death, serious injury or\nmalfunction that could\ncause one alleged?")
    draw.line([(260, 300), (190, 300)], fill=INK, width=3)
    draw.text((200, 262), "Yes", fill=INK, font=_font(20))
    _box(draw, (20, 470, 360, 620), "Reportable Event:\nnotify Regulatory Affairs\nthe same working day", AMBER)
    draw.line([(190, 300), (190, 470)], fill=INK, width=3)
    _arrow(draw, (190, 440), (190, 470))
    draw.line([(740, 300), (810, 300)], fill=INK, width=3)
    draw.text((750, 262), "No", fill=INK, font=_font(20))
    draw.line([(810, 300), (810, 470)], fill=INK, width=3)
    _arrow(draw, (810, 440), (810, 470))
    _box(draw, (640, 470, 980, 620), "Standard complaint:\ninvestigate per WI-022,\nclose within 30 days", GREEN)
    _box(draw, (270, 680, 730, 790), "Both paths: record the decision\nand its rationale in the complaint record", BLUE)
    _arrow(draw, (190, 620), (270, 735))
    _arrow(draw, (810, 620), (730, 735))
    return _png(image)


def complaints_per_month_png(rows: list[list[str]]) -> bytes:
    """Bar chart of complaints received per month, from the complaint log rows (header first)."""
    header, records = rows[0], rows[1:]
    received = header.index("Date received")
    counts = Counter(record[received][:7] for record in records)
    months = [f"2026-{m:02d}" for m in range(1, 7)]
    labels = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"]
    image = Image.new("RGB", (1000, 620), "white")
    draw = ImageDraw.Draw(image)
    left, bottom, top = 110, 540, 60
    peak = max(counts.values())
    scale = (bottom - top) / (peak + 1)
    draw.line([(left, top - 10), (left, bottom), (960, bottom)], fill=INK, width=3)
    for tick in range(0, peak + 2):
        y = bottom - tick * scale
        draw.line([(left - 8, y), (left, y)], fill=INK, width=2)
        draw.text((left - 40, y - 12), str(tick), fill=INK, font=_font(20))
    for index, (month, label) in enumerate(zip(months, labels)):
        x0 = left + 30 + index * 140
        height = counts.get(month, 0) * scale
        draw.rectangle((x0, bottom - height, x0 + 90, bottom), fill=(70, 120, 170), outline=INK, width=2)
        draw.text((x0 + 28, bottom + 12), label, fill=INK, font=_font(22))
        draw.text((x0 + 36, bottom - height - 32), str(counts.get(month, 0)), fill=INK, font=_font(22))
    draw.text((left, 14), "Complaints received per month, 2026", fill=INK, font=_font(24))
    return _png(image)
