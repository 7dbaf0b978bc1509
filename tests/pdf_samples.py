"""A varied set of PDFs drawn with reportlab, each with the headings and words it holds written beside it.

``write_samples(folder)`` draws every sample into ``folder`` and returns them as
:class:`Sample` records: the expected headings (in order) and the document's
words in logical order (running headers and footers excluded). The layouts are
the kinds the PDF reader must handle without having seen them: body-size bold
numbered headings, a two-column paper, unnumbered bold part names, all-caps
Roman-numbered headings, Korean and Chinese text in CID fonts, Arabic and
Hebrew text stored in visual order (as real PDFs store it) with an English
product name inside, and a Word document exported by LibreOffice when
``soffice`` is installed. Run as a script to write them into a folder for a look:
``python tests/pdf_samples.py /tmp/samples``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bidi import get_display
from reportlab.lib.colors import black
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

WIDTH, HEIGHT = 595, 842
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


@dataclass
class Sample:
    """One generated PDF and what a faithful reader finds in it."""

    name: str
    path: Path
    headings: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # every body line in logical order


def words(text: str) -> list[str]:
    """Tokens for word recall: CJK ideographs one by one, other text split at spaces, punctuation trimmed."""
    tokens = []
    for part in text.split():
        if _CJK.search(part):
            tokens.extend(ch for ch in part if _CJK.match(ch))
            continue
        part = part.strip(".,;:()[]\"'!?«»،؛")
        if part:
            tokens.append(part)
    return tokens


def _register_fonts() -> bool:
    """CID fonts (always there) and DejaVu TrueType fonts (for Arabic and Hebrew); False when DejaVu is missing."""
    for name in ("HYSMyeongJo-Medium", "HYGothic-Medium", "STSong-Light"):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(UnicodeCIDFont(name))
    if not (DEJAVU / "DejaVuSans.ttf").is_file():
        return False
    for name, file in (("DejaVuSans", "DejaVuSans.ttf"), ("DejaVuSans-Bold", "DejaVuSans-Bold.ttf")):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(DEJAVU / file)))
    return True


class Page:
    """A cursor over a canvas: lines drawn top-down, wrapped to a column, with running header and footer."""

    def __init__(self, sample: Sample, header: str, header_font: str = "Helvetica", rtl: bool = False):
        self.sample = sample
        self.canvas = canvas.Canvas(str(sample.path), pagesize=(WIDTH, HEIGHT))
        self.header, self.header_font, self.rtl = header, header_font, rtl
        self.number = 1
        self.left, self.right = 72.0, WIDTH - 72.0
        self.y = HEIGHT - 90
        self._furniture()

    def _furniture(self) -> None:
        self.canvas.setFont(self.header_font, 8)
        header = get_display(self.header) if self.rtl else self.header
        self.canvas.drawString(72, HEIGHT - 40, header)
        self.canvas.setFont("Helvetica", 8)
        self.canvas.drawCentredString(WIDTH / 2, 30, f"- {self.number} -")

    def new_page(self) -> None:
        self.canvas.showPage()
        self.number += 1
        self.y = HEIGHT - 90
        self._furniture()

    def _line(self, text: str, font: str, size: float) -> None:
        if self.y < 80:
            self.new_page()
        self.canvas.setFont(font, size)
        self.canvas.setFillColor(black)
        if self.rtl:
            self.canvas.drawRightString(self.right, self.y, get_display(text))  # visual order, as RTL PDFs store it
        else:
            self.canvas.drawString(self.left, self.y, text)
        self.y -= size * 1.35

    def wrap(self, text: str, font: str, size: float) -> list[str]:
        width = self.right - self.left
        if _CJK.search(text) and " " not in text.strip():
            lines, current = [], ""
            for ch in text:
                if pdfmetrics.stringWidth(current + ch, font, size) > width:
                    lines.append(current)
                    current = ""
                current += ch
            return [*lines, current] if current else lines
        lines, current = [], ""
        for word in text.split():
            trial = f"{current} {word}".strip()
            if current and pdfmetrics.stringWidth(trial, font, size) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        return [*lines, current] if current else lines

    def heading(self, text: str, font: str, size: float, above: float = 10) -> None:
        if self.y < 120:
            self.new_page()
        self.y -= above
        self._line(text, font, size)
        self.y -= 3
        self.sample.headings.append(text)
        self.sample.text.append(text)

    def paragraph(self, text: str, font: str, size: float, after: float = 6) -> None:
        for line in self.wrap(text, font, size):
            self._line(line, font, size)
        self.y -= after
        self.sample.text.append(text)

    def save(self) -> None:
        self.canvas.save()


LOREM = (
    "The review covers every claim received during the year and the way each one was handled, from the first notice "
    "to the final payment, and it compares the results with the targets set by the board at the start of the period."
)
LOREM2 = (
    "Figures are drawn from the ledger at the end of each quarter; where a figure was revised later the revised value "
    "is shown and the change is explained in the notes that follow the tables of this report."
)


def bold_numbered_report(folder: Path) -> Sample:
    """Body-size bold numbered headings (Helvetica-Bold 10 over Helvetica 10), numbered list items that are not headings."""
    sample = Sample("bold-numbered-report", folder / "bold-numbered-report.pdf")
    p = Page(sample, "Annual Claims Review 2025 - Example Mutual Insurance")
    p.heading("Annual Claims Review 2025", "Helvetica-Bold", 16)
    p.paragraph(LOREM, "Helvetica", 10)
    for number, title in (("1", "Introduction"), ("1.1", "Scope of the review"), ("1.2", "Sources of data"), ("2", "Findings")):
        p.heading(f"{number} {title}", "Helvetica-Bold", 10)
        p.paragraph(LOREM, "Helvetica", 10)
        p.paragraph(LOREM2, "Helvetica", 10)
    p.paragraph("The handling of a claim follows four steps:", "Helvetica", 10, after=2)
    for step in ("1) Register the claim in the ledger.", "2) Assess the damage on site.", "3) Approve the payment.", "4) Close the file."):
        p.paragraph(step, "Helvetica", 10, after=0)
    p.y -= 6
    for number, title in (("2.1", "Claims handling"), ("2.2", "Premium income"), ("3", "Outlook for 2026"), ("Appendix A", "Method")):
        p.heading(f"{number} {title}", "Helvetica-Bold", 10)
        p.paragraph(LOREM2, "Helvetica", 10)
        p.paragraph(LOREM, "Helvetica", 10)
    p.save()
    return sample


def two_column_paper(folder: Path) -> Sample:
    """A paper: centred title, abstract, two columns of Times 9.5 with bold numbered headings of 11 pt."""
    sample = Sample("two-column-paper", folder / "two-column-paper.pdf")
    p = Page(sample, "Workshop on Retrieval Systems 2025")
    p.canvas.setFont("Times-Bold", 17)
    title = "Learning Sparse Retrieval with Few Labels"
    p.canvas.drawCentredString(WIDTH / 2, p.y, title)
    sample.headings.append(title)
    sample.text.append(title)
    p.y -= 22
    p.canvas.setFont("Times-Roman", 11)
    p.canvas.drawCentredString(WIDTH / 2, p.y, "Ana Lima and Bo Chen, University of Examples")
    sample.text.append("Ana Lima and Bo Chen, University of Examples")
    p.y -= 30
    column = (WIDTH - 72 * 2 - 24) / 2
    top = p.y
    parts = [
        ("Abstract", [LOREM]),
        ("1 Introduction", [LOREM, LOREM2]),
        ("2 Related Work", [LOREM2, LOREM]),
        ("5 Experiments", [LOREM]),
        ("5.1 Hyper Parameter Optimization", [LOREM2, LOREM]),
        ("5.2 Results", [LOREM, LOREM2]),
        ("6 Conclusion", [LOREM2]),
    ]
    col = 0
    p.left, p.right = 72, 72 + column
    for heading, paragraphs in parts:
        if p.y < 200 and col == 0:
            col, p.y = 1, top
            p.left, p.right = 72 + column + 24, WIDTH - 72
        p.heading(heading, "Times-Bold", 11, above=8)
        for text in paragraphs:
            p.paragraph(text, "Times-Roman", 9.5, after=4)
    p.save()
    return sample


def handbook_parts(folder: Path) -> Sample:
    """A handbook page: a chapter title, unnumbered bold part names at body size, one all-caps heading, bold lead-ins."""
    sample = Sample("handbook-parts", folder / "handbook-parts.pdf")
    p = Page(sample, "Airplane Flying Handbook (FAA-H-8083-3C)")
    p.heading("Chapter 4: Ground Operations", "Helvetica-Bold", 15)
    p.paragraph(LOREM, "Helvetica", 10)
    for title in ("Preflight Assessment of the Aircraft", "Engine Start", "Taxiing", "Before Takeoff Check"):
        p.heading(title, "Helvetica-Bold", 10)
        p.paragraph(LOREM2, "Helvetica", 10)
        p.canvas.setFont("Helvetica-Bold", 10)
        p.canvas.drawString(72, p.y, "Caution:")
        lead = pdfmetrics.stringWidth("Caution: ", "Helvetica-Bold", 10)
        p.canvas.setFont("Helvetica", 10)
        p.canvas.drawString(72 + lead, p.y, "check the area around the propeller before every start.")
        sample.text.append("Caution: check the area around the propeller before every start.")
        p.y -= 19
    p.heading("EMERGENCY PROCEDURES", "Helvetica-Bold", 11)
    p.paragraph(LOREM, "Helvetica", 10)
    p.save()
    return sample


def contents_report(folder: Path) -> Sample:
    """A report that lists its sections on its first page in the headings' own bold type, each entry followed by its
    page number ("Results of the survey 3", not a heading), then the sections themselves."""
    sample = Sample("contents-report", folder / "contents-report.pdf")
    p = Page(sample, "Regional Water Quality Report")
    sections = [("Scope of the survey", 2), ("Sampling sites", 2), ("Results of the survey", 3), ("Treatment changes", 3),
                ("Outlook", 4)]
    p.heading("Contents", "Helvetica-Bold", 14)
    for title, page in sections:
        p._line(f"{title} {page}", "Helvetica-Bold", 11)
        p.y -= 4
    for title, _ in sections:
        if title in ("Scope of the survey", "Results of the survey", "Outlook"):
            p.new_page()
        p.heading(title, "Helvetica-Bold", 11)
        p.paragraph(LOREM, "Helvetica", 10)
        p.paragraph(LOREM2, "Helvetica", 10)
    p.save()
    return sample


def roman_sections(folder: Path) -> Sample:
    """A legal-style notice: Roman-numbered all-caps headings in the body font, lettered subsections, an appendix."""
    sample = Sample("roman-sections", folder / "roman-sections.pdf")
    p = Page(sample, "Notice of Proposed Rulemaking - Docket 2025-14")
    p.heading("NOTICE OF PROPOSED RULEMAKING", "Times-Bold", 14)
    p.paragraph(LOREM, "Times-Roman", 11)
    for heading in ("I. BACKGROUND", "II. SUMMARY OF THE PROPOSAL", "A. Scope", "B. Effective Date", "III. REGULATORY ANALYSIS", "Section 4 Comments"):
        p.heading(heading, "Times-Roman", 11)
        p.paragraph(LOREM2, "Times-Roman", 11)
        p.paragraph(LOREM, "Times-Roman", 11)
    p.save()
    return sample


KO_BODY = (
    "이 보고서는 보험 회사의 재무 건전성과 소비자 보호 현황을 점검한 결과를 정리한 것이다. 감독 당국은 매 분기 자료를 "
    "받아 지급 여력 비율과 민원 처리 실적을 확인하고, 기준에 미달하는 회사에는 개선 계획을 요구한다."
)


def korean_report(folder: Path) -> Sample:
    """Korean: chapters "제1장" (Gothic 13 pt), numbered sections "1." in Gothic at body size over Myeongjo body text."""
    sample = Sample("korean-report", folder / "korean-report.pdf")
    p = Page(sample, "2025년 보험 감독 보고서", header_font="HYSMyeongJo-Medium")
    p.heading("보험 감독 연차 보고서", "HYGothic-Medium", 18)
    p.paragraph(KO_BODY, "HYSMyeongJo-Medium", 10)
    for chapter, sections in (("제1장 총칙", ("1. 목적", "2. 적용 범위")), ("제2장 감독 현황", ("1. 지급 여력 비율", "2. 민원 처리 실적", "3. 향후 계획"))):
        p.heading(chapter, "HYGothic-Medium", 13, above=14)
        p.paragraph(KO_BODY, "HYSMyeongJo-Medium", 10)
        for section in sections:
            p.heading(section, "HYGothic-Medium", 10)
            p.paragraph(KO_BODY, "HYSMyeongJo-Medium", 10)
    p.save()
    return sample


ZH_BODY = "本报告说明了公司在本年度的经营情况和风险管理措施。监管机构每季度收集数据，检查偿付能力比率和投诉处理情况，并要求未达标的公司提交改进计划。"
ZH_BODY2 = "各分支机构按照统一的标准报送数据，总部对异常数值进行复核，复核结果在下一季度的例会上通报，并记录在案以备审计。"


def chinese_report(folder: Path) -> Sample:
    """Chinese (STSong-Light): "第一章" chapters at 14 pt, "1.1" sections at 12 pt, body 10.5 pt without spaces."""
    sample = Sample("chinese-report", folder / "chinese-report.pdf")
    p = Page(sample, "二〇二五年度报告", header_font="STSong-Light")
    p.heading("年度经营报告", "STSong-Light", 20)
    p.paragraph(ZH_BODY, "STSong-Light", 10.5)
    for chapter, sections in (("第一章 总则", ("1.1 适用范围", "1.2 术语定义")), ("第二章 经营情况", ("2.1 保费收入", "2.2 赔付支出"))):
        p.heading(chapter, "STSong-Light", 14, above=14)
        p.paragraph(ZH_BODY, "STSong-Light", 10.5)
        for section in sections:
            p.heading(section, "STSong-Light", 12)
            p.paragraph(ZH_BODY, "STSong-Light", 10.5)
            p.paragraph(ZH_BODY2, "STSong-Light", 10.5)
    p.save()
    return sample


AR_BODY = (
    "تعلن الشركة عن تحديث برنامج التشغيل لجهاز NW-300 Pump في جميع المستشفيات. يجب على الفنيين تثبيت الإصدار الجديد "
    "قبل نهاية الشهر وتسجيل رقم الجهاز في سجل الصيانة."
)
AR_BODY2 = "يتضمن التحديث إصلاح إنذار الانسداد وتحسين دقة معدل التدفق، ولا يتطلب إعادة معايرة الجهاز بعد التثبيت."


def arabic_notice(folder: Path) -> Sample:
    """Arabic, right-aligned and stored in visual order, with an English product name inside the lines."""
    sample = Sample("arabic-notice", folder / "arabic-notice.pdf")
    p = Page(sample, "إشعار السلامة الميدانية", header_font="DejaVuSans", rtl=True)
    p.heading("إشعار السلامة الميدانية", "DejaVuSans-Bold", 16)
    p.paragraph(AR_BODY, "DejaVuSans", 10)
    for heading in ("الغرض من الإشعار", "الأجهزة المتأثرة", "الإجراءات المطلوبة"):
        p.heading(heading, "DejaVuSans-Bold", 12)
        p.paragraph(AR_BODY2, "DejaVuSans", 10)
        p.paragraph(AR_BODY, "DejaVuSans", 10)
    p.save()
    return sample


HE_BODY = (
    "המדריך מתאר את התקנת מערכת Shelfwise Server בבית החולים. יש לבדוק את החיבור לרשת לפני ההתקנה ולרשום את מספר "
    "הגרסה ביומן השינויים של המחלקה."
)


HE_BODY2 = "לאחר ההתקנה יש להפעיל מחדש את השרת ולוודא שכל המשתמשים יכולים להתחבר, ואז לדווח למנהל המערכת על סיום העבודה."


def hebrew_guide(folder: Path) -> Sample:
    """Hebrew, right-aligned and stored in visual order, with a Latin product name and bold headings."""
    sample = Sample("hebrew-guide", folder / "hebrew-guide.pdf")
    p = Page(sample, "מדריך התקנה", header_font="DejaVuSans", rtl=True)
    p.heading("מדריך התקנה למערכת", "DejaVuSans-Bold", 16)
    p.paragraph(HE_BODY, "DejaVuSans", 10)
    for heading in ("דרישות מוקדמות", "שלבי ההתקנה", "בדיקה לאחר ההתקנה"):
        p.heading(heading, "DejaVuSans-Bold", 12)
        p.paragraph(HE_BODY, "DejaVuSans", 10)
        p.paragraph(HE_BODY2, "DejaVuSans", 10)
    p.save()
    return sample


def libreoffice_docx(folder: Path) -> Sample | None:
    """A Word document with Heading 1-3 styles, exported by LibreOffice; None when soffice is not installed."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        return None
    from docx import Document

    sample = Sample("libreoffice-docx", folder / "libreoffice-docx.pdf")
    document = Document()
    document.add_heading("Supplier Audit Procedure", level=0)
    sample.headings.append("Supplier Audit Procedure")
    for level, text in ((1, "1 Purpose"), (2, "1.1 Scope"), (1, "2 Responsibilities"), (2, "2.1 Audit lead"), (3, "Planning the audit"), (1, "3 Records")):
        document.add_heading(text, level=level)
        sample.headings.append(text)
        document.add_paragraph(LOREM)
        document.add_paragraph(LOREM2)
    sample.text = [*sample.headings, LOREM, LOREM2]
    source = folder / "libreoffice-docx.docx"
    document.save(source)
    subprocess.run([soffice, "--headless", "--convert-to", "pdf", "--outdir", str(folder), str(source)], check=True, capture_output=True, timeout=120)
    return sample


def write_samples(folder: Path) -> list[Sample]:
    """Draw every sample into ``folder``; the RTL samples need DejaVu, the LibreOffice one needs soffice."""
    folder.mkdir(parents=True, exist_ok=True)
    dejavu = _register_fonts()
    makers = [bold_numbered_report, two_column_paper, handbook_parts, contents_report, roman_sections, korean_report, chinese_report]
    if dejavu:
        makers += [arabic_notice, hebrew_guide]
    samples = [maker(folder) for maker in makers]
    office = libreoffice_docx(folder)
    return samples + ([office] if office else [])


if __name__ == "__main__":
    for sample in write_samples(Path(sys.argv[1] if len(sys.argv) > 1 else "pdf-samples")):
        print(sample.path, len(sample.headings), "headings")


def score(sample: Sample, converted) -> dict:
    """Heading recall and precision (normalised text, in any order) and word recall of a converted sample."""
    from shelfwise.compiler.ingest.convert.pdf_tree import normalize_heading

    def key(text: str) -> str:
        return normalize_heading(text) or "".join(text.split())

    found = [key(e.text) for e in converted.elements if e.kind == "heading"]
    wanted = [key(h) for h in sample.headings]
    pool = list(found)
    hits = 0
    for item in wanted:
        if item in pool:
            pool.remove(item)
            hits += 1
    got: dict[str, int] = {}
    for element in converted.elements:
        cells = [cell for row in element.rows or [] for cell in row]
        for token in words(" ".join([element.text, *cells])):
            got[token] = got.get(token, 0) + 1
    expected = [token for line in sample.text for token in words(line)]
    seen = 0
    for token in expected:
        if got.get(token, 0) > 0:
            got[token] -= 1
            seen += 1
    return {
        "heading_recall": round(hits / len(wanted), 3) if wanted else 1.0,
        "heading_precision": round(hits / len(found), 3) if found else 0.0,
        "word_recall": round(seen / len(expected), 3) if expected else 1.0,
        "found": [e.text for e in converted.elements if e.kind == "heading"],
        "wanted": sample.headings,
    }
