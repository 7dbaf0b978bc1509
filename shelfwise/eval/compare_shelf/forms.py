"""The synthetic comparison shelf's contents: tax returns in three national layouts, supplier invoices, a procedure.

Every person, supplier and id number is invented; id numbers sit in ranges
never issued (SSNs with area 000, SINs and TFNs starting 000). A document is a
list of blocks: ("h", level, text), ("p", text), ("t", rows) for a table,
("l", rows) for "Label: value" lines. ``PAIRS`` holds
each pair's two documents as (file name, title, blocks), the truth of every
changed field, and the fields that did not change.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

__all__ = ["PAIRS", "ALONE", "money"]


def money(value: Decimal, symbol: str = "$") -> str:
    return f"{symbol}{value:,.2f}"


def _d(text: str) -> Decimal:
    return Decimal(text)


US = [("Wages, salaries, tips", "money"), ("Taxable interest", "money"), ("Adjusted gross income", "money"),
      ("Standard deduction", "money"), ("Taxable income", "money"), ("Total tax", "money"),
      ("Federal income tax withheld", "money"), ("Refund", "money")]
CA = [("Employment income (line 10100)", "money"), ("Total income (line 15000)", "money"), ("Net income (line 23600)", "money"),
      ("Taxable income (line 26000)", "money"), ("Net federal tax", "money"), ("Provincial tax", "money"),
      ("Total income tax deducted", "money"), ("Refund", "money")]
AU = [("Salary or wages", "money"), ("Interest", "money"), ("Total income", "money"), ("Deductions", "money"),
      ("Taxable income", "money"), ("Tax on taxable income", "money"), ("Medicare levy", "money"),
      ("PAYG tax withheld", "money"), ("Refund", "money")]
LAYOUTS = {
    "us": ("US Individual Income Tax Return", "Social security number (SSN)", "Filing status", US, "$"),
    "ca": ("Canada T1 Income Tax and Benefit Return", "Social insurance number (SIN)", "Province of residence", CA, "$"),
    "au": ("Australia Individual Tax Return", "Tax file number (TFN)", "Residency status", AU, "A$"),
}


def _return(layout: str, name: str, number: str, year: int, status: str, address: str, amounts: list[str], lines_kind: str = "t") -> tuple[str, list]:
    form, id_label, status_label, lines, symbol = LAYOUTS[layout]
    title = f"{form} {year} - {name}"
    rows = [["Name", name], [id_label, number], ["Tax year", str(year)], [status_label, status], ["Address", address]]
    rows += [[label, money(_d(a), symbol)] for (label, _), a in zip(lines, amounts)]
    blocks = [("h", 1, title), ("p", f"Return of {name} for the tax year {year}, as filed."), ("h", 2, "Return lines"), (lines_kind, rows)]
    return title, blocks


def _return_pair(layout, name, number, years, statuses, addresses, old, new, files, lines_kind="t"):
    title_a, blocks_a = _return(layout, name, number, years[0], statuses[0], addresses[0], old, lines_kind)
    title_b, blocks_b = _return(layout, name, number, years[1], statuses[1], addresses[1], new, lines_kind)
    _, _, status_label, lines, symbol = LAYOUTS[layout]
    truth, same = [], []
    fields = [("Tax year", "number", str(years[0]), str(years[1])), (status_label, "text", statuses[0], statuses[1]),
              ("Address", "text", addresses[0], addresses[1])]
    fields += [(label, "money", money(_d(a), symbol), money(_d(b), symbol)) for (label, _), a, b in zip(lines, old, new)]
    for label, kind, a, b in fields:
        if a == b:
            same.append(label)
            continue
        entry = {"field": label, "kind": "changed", "old": a, "new": b}
        if kind == "money":
            entry["difference"] = str(_d(b.replace(symbol, "").replace(",", "")) - _d(a.replace(symbol, "").replace(",", "")))
        elif kind == "number":
            entry["difference"] = str(int(b) - int(a))
        truth.append(entry)
    return {"name": f"{name} ({LAYOUTS[layout][1].split('(')[-1].rstrip(')')} {number})", "kind": "person",
            "a": (files[0], title_a, blocks_a), "b": (files[1], title_b, blocks_b), "truth": truth, "unchanged": same}


def _invoice(supplier, id_label, number, invoice_no, when: date, due: date, bill_to, items, tax_rate, symbol="$"):
    title = f"Invoice {invoice_no} - {supplier}"
    subtotal = sum((_d(q) * _d(p) for _, q, p in items), Decimal("0"))
    tax = (subtotal * Decimal(tax_rate) / 100).quantize(Decimal("0.01"))
    header = [["Supplier", supplier], [id_label, number], ["Invoice number", invoice_no], ["Invoice date", when.isoformat()],
              ["Due date", due.isoformat()], ["Bill to", bill_to]]
    lines = [["Description", "Quantity", "Unit price", "Amount"]]
    lines += [[d, q, money(_d(p), symbol), money(_d(q) * _d(p), symbol)] for d, q, p in items]
    totals = [["Subtotal", money(subtotal, symbol)], [f"Tax ({tax_rate}%)", money(tax, symbol)], ["Total due", money(subtotal + tax, symbol)]]
    blocks = [("h", 1, title), ("t", header), ("h", 2, "Line items"), ("t", lines), ("h", 2, "Totals"), ("t", totals)]
    return title, blocks, {"Subtotal": subtotal, f"Tax ({tax_rate}%)": tax, "Total due": subtotal + tax}


def _invoice_pair(supplier, id_label, number, nos, whens, dues, bill_to, items_a, items_b, rate, files, symbol="$"):
    title_a, blocks_a, tot_a = _invoice(supplier, id_label, number, nos[0], whens[0], dues[0], bill_to, items_a, rate, symbol)
    title_b, blocks_b, tot_b = _invoice(supplier, id_label, number, nos[1], whens[1], dues[1], bill_to, items_b, rate, symbol)
    truth = [{"field": "Invoice number", "kind": "changed", "old": nos[0], "new": nos[1]}]
    for label, a, b in (("Invoice date", whens[0], whens[1]), ("Due date", dues[0], dues[1])):
        truth.append({"field": label, "kind": "changed", "old": a.isoformat(), "new": b.isoformat(), "difference": str((b - a).days)})
    same = ["Supplier", id_label, "Bill to"]
    old = {d: (q, p) for d, q, p in items_a}
    new = {d: (q, p) for d, q, p in items_b}
    for desc in new:
        if desc not in old:
            truth.append({"item": desc, "kind": "added"})
    for desc in old:
        if desc not in new:
            truth.append({"item": desc, "kind": "removed"})
    for desc in old:
        if desc not in new:
            continue
        (qa, pa), (qb, pb) = old[desc], new[desc]
        cells = [("Quantity", qa, qb, str(_d(qb) - _d(qa))), ("Unit price", money(_d(pa), symbol), money(_d(pb), symbol), str(_d(pb) - _d(pa))),
                 ("Amount", money(_d(qa) * _d(pa), symbol), money(_d(qb) * _d(pb), symbol), str(_d(qb) * _d(pb) - _d(qa) * _d(pa)))]
        for column, a, b, diff in cells:
            if a == b:
                same.append(f"{desc} › {column}")
            else:
                truth.append({"item": desc, "column": column, "kind": "changed", "old": a, "new": b, "difference": diff})
    for label in tot_a:
        if tot_a[label] == tot_b[label]:
            same.append(label)
        else:
            truth.append({"field": label, "kind": "changed", "old": money(tot_a[label], symbol), "new": money(tot_b[label], symbol),
                          "difference": str(tot_b[label] - tot_a[label])})
    return {"name": f"{supplier} ({id_label} {number})", "kind": "supplier", "a": (files[0], title_a, blocks_a),
            "b": (files[1], title_b, blocks_b), "truth": truth, "unchanged": same}


def _procedure(rev: str, effective: str, days: int, extra: bool) -> tuple[str, list]:
    title = f"PR-210 Goods Receipt Procedure, Rev {rev}"
    blocks = [
        ("h", 1, title),
        ("t", [["Document", "PR-210"], ["Revision", rev], ["Effective date", effective], ["Owner", "Warehouse Manager"]]),
        ("h", 2, "1 Purpose"),
        ("p", "This procedure describes how incoming goods are received, inspected and released to stock."),
        ("h", 2, "2 Receiving"),
        ("p", "Every delivery is checked against its purchase order. "
              f"Discrepancies shall be reported to the supplier within {days} working days of receipt. "
              + ("Damaged packaging is photographed before it is opened." if extra else "Damaged packaging is noted on the delivery note.")),
        ("h", 2, "3 Inspection"),
        ("p", "Inspection follows the sampling plan of the item's specification. "
              + ("Samples are taken from at least 3 cartons." if extra else "Samples are taken from at least 2 cartons.")),
    ]
    if extra:
        blocks += [("h", 2, "4 Quarantine"), ("p", "Goods that fail inspection are moved to the quarantine cage and labelled with a red tag.")]
    blocks += [("h", 2, "5 Records" if extra else "4 Records"),
               ("p", "Receiving records are kept for 10 years in the quality archive." if extra else "Receiving records are kept for 7 years.")]
    return title, blocks


def _procedure_pair(files):
    title_a, blocks_a = _procedure("B", "2025-02-03", 5, False)
    title_b, blocks_b = _procedure("C", "2026-01-12", 3, True)
    truth = [
        {"field": "Revision", "kind": "changed", "old": "B", "new": "C"},
        {"field": "Effective date", "kind": "changed", "old": "2025-02-03", "new": "2026-01-12", "difference": str((date(2026, 1, 12) - date(2025, 2, 3)).days)},
        {"value": "Discrepancies shall be reported to the supplier within", "kind": "changed", "old": "5 working days", "new": "3 working days", "difference": "-2"},
        {"value": "Samples are taken from at least", "kind": "changed", "old": "2", "new": "3", "difference": "1"},
        {"sentence": "Damaged packaging is photographed before it is opened.", "kind": "added"},
        {"sentence": "Damaged packaging is noted on the delivery note.", "kind": "removed"},
        {"value": "Receiving records are kept for", "kind": "changed", "old": "7 years", "new": "10 years", "difference": "3"},
        {"sentence": "Receiving records are kept for 10 years in the quality archive.", "kind": "reworded"},
        {"section": "4 Quarantine", "kind": "added"},
    ]
    return {"name": "PR-210", "kind": "code", "a": (files[0], title_a, blocks_a), "b": (files[1], title_b, blocks_b),
            "truth": truth, "unchanged": ["Document", "Owner"]}


PAIRS = [
    _return_pair("us", "Jordan Ellis", "000-41-4417", (2023, 2024), ("Single", "Married filing jointly"),
                 ("14 Birch Lane, Dayton, OH", "14 Birch Lane, Dayton, OH"),
                 ["61250.00", "312.40", "61562.40", "13850.00", "47712.40", "5655.00", "6120.00", "465.00"],
                 ["64800.00", "298.15", "65098.15", "29200.00", "35898.15", "3871.00", "6340.00", "2469.00"],
                 ("ellis-2023.pdf", "ellis-2024.docx")),
    _return_pair("us", "Maria Okafor", "000-62-1180", (2023, 2024), ("Head of household", "Head of household"),
                 ("8 Quay Street, Tacoma, WA", "221 Larch Road, Tacoma, WA"),
                 ["48200.00", "0.00", "48200.00", "20800.00", "27400.00", "2914.00", "3300.00", "386.00"],
                 ["51020.00", "84.30", "51104.30", "21900.00", "29204.30", "3093.00", "3300.00", "207.00"],
                 ("okafor-2023.xlsx", "okafor-2024.pdf")),
    _return_pair("ca", "Luc Tremblay", "000 318 552", (2023, 2024), ("Quebec", "Ontario"),
                 ("40 Rue Sainte-Anne, Quebec City", "12 Elm Street, Ottawa"),
                 ["72400.00", "73150.00", "70980.00", "70980.00", "8843.00", "9614.00", "19100.00", "643.00"],
                 ["75600.00", "76020.00", "74110.00", "74110.00", "9325.00", "4102.00", "14200.00", "773.00"],
                 ("tremblay-2023.docx", "tremblay-2024.pdf"), lines_kind="l"),
    _return_pair("au", "Priya Natarajan", "000 771 209", (2023, 2024), ("Resident", "Resident"),
                 ("3/17 Wattle Street, Brisbane QLD", "3/17 Wattle Street, Brisbane QLD"),
                 ["88500.00", "1204.55", "89704.55", "2310.00", "87394.55", "19230.00", "1747.89", "21500.00", "522.11"],
                 ["91200.00", "1640.10", "92840.10", "2310.00", "90530.10", "17886.00", "1810.60", "20100.00", "403.40"],
                 ("natarajan-2023.pdf", "natarajan-2024.xlsx")),
    _invoice_pair("Harbor Supplies Ltd", "ABN", "00 111 222 333", ("INV-0117", "INV-0142"),
                  (date(2024, 3, 5), date(2024, 6, 11)), (date(2024, 4, 4), date(2024, 7, 11)), "Northwind Medical, Inc.",
                  [("Nitrile gloves, box of 100", "40", "8.50"), ("Alcohol swabs, pack of 200", "25", "6.20"), ("Sharps container 5 L", "10", "12.00")],
                  [("Nitrile gloves, box of 100", "60", "8.50"), ("Alcohol swabs, pack of 200", "25", "6.45"), ("Infusion set labels, roll", "12", "4.75")],
                  "10", ("harbor-inv-0117.pdf", "harbor-inv-0142.docx")),
    _invoice_pair("Calder Components", "VAT number", "GB000 4417 00", ("CC-5521", "CC-5608"),
                  (date(2024, 1, 15), date(2024, 2, 19)), (date(2024, 2, 14), date(2024, 3, 20)), "Northwind Medical, Inc.",
                  [("Pump housing, front", "200", "3.10"), ("Pump housing, rear", "200", "2.95"), ("Keypad membrane", "150", "1.80")],
                  [("Pump housing, front", "180", "3.10"), ("Pump housing, rear", "180", "3.05"), ("Keypad membrane", "150", "1.80")],
                  "20", ("calder-cc-5521.xlsx", "calder-cc-5608.xlsx"), symbol="£"),
    _invoice_pair("Fenwick Office Co", "Business number (BN)", "000000000RT0001", ("F-2210", "F-2291"),
                  (date(2024, 9, 2), date(2024, 10, 1)), (date(2024, 10, 2), date(2024, 10, 31)), "Northwind Medical, Inc.",
                  [("Copy paper A4, box", "12", "38.00"), ("Toner cartridge", "3", "92.50")],
                  [("Copy paper A4, box", "12", "39.50"), ("Toner cartridge", "4", "92.50"), ("Archive boxes, pack of 10", "2", "24.00")],
                  "13", ("fenwick-f-2210.docx", "fenwick-f-2291.pdf")),
    _procedure_pair(("pr-210-rev-b.docx", "pr-210-rev-c.docx")),
]

_trap_title, _trap_blocks = _return("us", "Jordan Ellys", "000-41-4471", 2024, "Single", "90 Cedar Court, Dayton, OH",
                                    ["58100.00", "120.00", "58220.00", "14600.00", "43620.00", "4996.00", "5200.00", "204.00"])
ALONE = [{"name": "Jordan Ellys (SSN 000-41-4471)", "doc": ("ellys-2024.pdf", _trap_title, _trap_blocks),
          "why": "a near-identical name with another SSN: kept apart from Jordan Ellis"}]
