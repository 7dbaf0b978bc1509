"""What a synthetic shelf's documents say: codes, revisions, numbered sections, tables, references and names.

Everything is drawn from ``random.Random(seed)`` in a fixed order, so one (size, seed) always gives the same
shelf. The shape follows a quality system's controlled documents, the kind users keep thousands of:

- documents come in *families* (one code, e.g. ``SOP-0042``); every third family has two revisions, and Rev B
  says in its revision history that it supersedes Rev A (and changes one threshold);
- each document has numbered sections (1 Purpose … 6 Revision history, with 4.1–4.3 and 5.1–5.2), a
  definitions section, rules with thresholds, and a table of records;
- references by number (``see Section 5.2``) and to other documents by code and full title
  (``as required by SOP-0017 Calibration of Torque Gauges``), so hooks and links resolve at scale;
- rare names (invented people, products and sites no document writes in lower case), each shared by a small
  cluster of documents on one topic, plus the company name that every document holds (a name in every
  document is what makes name linking quadratic unless chance statistics bound it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["DocSpec", "SectionSpec", "plan_shelf", "COMPANY"]

COMPANY = "Halvorsen Instruments"

_DEPARTMENTS = [("SOP", "operations"), ("POL", "policies"), ("WI", "work-instructions"), ("SPEC", "specifications"), ("QP", "quality")]
_SUBJECTS = [
    "Calibration of {x} Gauges", "Handling of {x} Complaints", "Supplier Qualification for {x} Parts", "Cleaning of {x} Lines",
    "Training Records for {x} Operators", "Change Control of {x} Software", "Inspection of Incoming {x} Lots",
    "Storage of {x} Materials", "Maintenance of {x} Presses", "Release of {x} Batches", "Audit of {x} Suppliers",
    "Deviation Handling in {x} Assembly",
]
_QUALIFIERS = [
    "Torque", "Pressure", "Infusion", "Sterile", "Electronic", "Hydraulic", "Optical", "Ceramic", "Polymer", "Precision",
    "Thermal", "Coated", "Welded", "Machined", "Moulded", "Flexible",
]
_SYLLABLES = ["vor", "quel", "tam", "bris", "ond", "kel", "zar", "mir", "thal", "dun", "pex", "oru", "silv", "ax", "yen", "grav"]
_UNITS = [("calendar days", (5, 90)), ("months", (1, 36)), ("years", (1, 15)), ("hours", (2, 72))]
_ACTIONS = [
    "Records of each {s} activity shall be retained for at least {v} {u}.",
    "Each {s} review shall be completed within {v} {u} of the request.",
    "Open actions from a {s} check shall be closed within {v} {u}.",
    "The {s} register shall be reviewed every {v} {u} by the process owner.",
]


@dataclass
class SectionSpec:
    """One numbered section: its number and heading, paragraphs, and an optional table (header row first)."""

    number: str
    heading: str
    paragraphs: list[str] = field(default_factory=list)
    table: list[list[str]] | None = None

    @property
    def level(self) -> int:
        return self.number.count(".") + 1

    @property
    def title(self) -> str:
        return f"{self.number} {self.heading}"


@dataclass
class DocSpec:
    """One document: where it goes, in which format, its title and sections."""

    index: int
    code: str
    revision: str
    department: str
    subject: str
    fmt: str
    sections: list[SectionSpec]

    @property
    def title(self) -> str:
        return f"{self.code} {self.subject}, Rev {self.revision}"

    @property
    def relpath(self) -> str:
        ext = {"markdown": "md"}.get(self.fmt, self.fmt)
        return f"documents/{self.department}/{self.code.lower()}-rev-{self.revision.lower()}.{ext}"


def _name(rng: random.Random, parts: int) -> str:
    return " ".join("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize() for _ in range(parts))


def _names(rng: random.Random, count: int) -> list[str]:
    seen: set[str] = set()
    out = []
    while len(out) < count:
        name = _name(rng, 2)
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out


def _formats(count: int, mix: dict[str, float]) -> list[str]:
    """The format of each document: ``mix`` shares laid out evenly (largest remainder), then in a fixed order."""
    total = sum(mix.values())
    quotas = {fmt: share / total * count for fmt, share in mix.items()}
    counts = {fmt: int(q) for fmt, q in quotas.items()}
    for fmt in sorted(quotas, key=lambda f: (counts[f] - quotas[f], f))[: count - sum(counts.values())]:
        counts[fmt] += 1
    out: list[str] = []
    credit = dict.fromkeys(mix, 0.0)
    for _ in range(count):  # interleave: each step takes the format furthest behind its share
        for fmt in credit:
            credit[fmt] += counts[fmt] / count
        fmt = max(sorted(credit), key=lambda f: credit[f])
        credit[fmt] -= 1
        out.append(fmt)
    return out


def _families(count: int) -> list[tuple[int, str]]:
    """(family number, revision letter) per document: every third family has Rev A and Rev B."""
    out: list[tuple[int, str]] = []
    family = 0
    while len(out) < count:
        revisions = "AB" if family % 3 == 0 else "A"
        for letter in revisions:
            if len(out) < count:
                out.append((family, letter))
        family += 1
    return out


def plan_shelf(count: int, seed: int, mix: dict[str, float]) -> list[DocSpec]:
    """The specification of every document of a ``count``-document shelf, in index order."""
    rng = random.Random(seed)
    families = _families(count)
    n_families = families[-1][0] + 1
    cluster_size = 6
    clusters = max(1, n_families // cluster_size)
    people = _names(rng, clusters * 3)
    sites = [f"{name.split()[0]} Works" for name in _names(rng, max(3, clusters // 10))]
    identity = []
    for family in range(n_families):
        prefix, dept = _DEPARTMENTS[family % len(_DEPARTMENTS)]
        subject = rng.choice(_SUBJECTS).format(x=rng.choice(_QUALIFIERS))
        identity.append((f"{prefix}-{family + 1:04d}", dept, subject))
    formats = _formats(count, mix)
    docs = []
    for index, (family, revision) in enumerate(families):
        code, dept, subject = identity[family]
        cluster = family * clusters // n_families
        drng = random.Random(f"{seed}:{family}")  # one family's revisions share their wording
        names = people[cluster * 3 : cluster * 3 + 3]
        site = sites[cluster % len(sites)]
        related = sorted({drng.randrange(n_families) for _ in range(2)} - {family})
        sections = _sections(drng, code, revision, subject, names, site, [identity[r] for r in related])
        docs.append(DocSpec(index, code, revision, dept, subject, formats[index], sections))
    return docs


def _sections(rng: random.Random, code: str, revision: str, subject: str, names: list[str], site: str,
              related: list[tuple[str, str, str]]) -> list[SectionSpec]:
    topic = subject.split(" of ")[-1].split(" for ")[-1].split(" in ")[-1].lower()
    owner, approver, auditor = names
    unit, (low, high) = rng.choice(_UNITS)
    value = rng.randint(low, high)
    if revision != "A":
        value = max(low, value - rng.randint(1, max(1, (high - low) // 4)))
    rules = [a.format(s=topic, v=value if i == 0 else rng.randint(low, high), u=unit) for i, a in enumerate(rng.sample(_ACTIONS, 3))]
    refs = [f"as required by {c} {s}" for c, _, s in related] or ["as required by this procedure"]
    term = f"{topic.split()[0]} record"
    sections = [
        SectionSpec("1", "Purpose", [
            f"This document describes how {COMPANY} carries out the {subject.lower()} at the {site} site.",
            f"It is owned by {owner} and approved by {approver}.",
        ]),
        SectionSpec("2", "Scope", [
            f"It applies to every {topic} activity at {site} and to contractors working under the direction of {owner}.",
            f"Work outside {site} follows the local procedure, {refs[0]}.",
        ]),
        SectionSpec("3", "Terms and definitions", [
            f"{term.capitalize()} means the completed form that shows a {topic} activity was done, by whom and when.",
            f"Process owner means {owner}, who answers for this procedure.",
        ]),
        SectionSpec("4", "Requirements", [f"The requirements below apply to every {topic} activity; records are kept as described in Section 5.2."]),
        SectionSpec("4.1", "General", [rules[0], f"An exception needs the written approval of {approver}."]),
        SectionSpec("4.2", "Responsibilities", [
            f"{owner} plans the {topic} activities and {auditor} checks a sample of them each quarter.",
            rules[1] + f" The work is done {refs[-1]}.",
        ]),
        SectionSpec("4.3", "Nonconformities", [rules[2], "See Section 4.1 for exceptions and Section 5.1 for the forms used."]),
        SectionSpec("5", "Records", [f"Records are kept by {owner} in the document system of {COMPANY}."]),
        SectionSpec("5.1", "Forms", ["The forms in the table below are used."], table=[
            ["Form", "Owner", "Retention"],
            [f"{code}-F1 {topic.title()} log", owner, f"{value} {unit}"],
            [f"{code}-F2 Review sheet", approver, f"{rng.randint(1, 10)} years"],
            [f"{code}-F3 Exception note", auditor, f"{rng.randint(1, 10)} years"],
        ]),
        SectionSpec("5.2", "Retention and access", [
            f"Completed forms are archived for the period in Section 5.1 and may be read by {auditor} on request.",
        ]),
    ]
    history = f"Revision {revision} of {code} was issued by {approver}."
    if revision != "A":
        history += f" This revision supersedes {code} Rev {chr(ord(revision) - 1)}, which is withdrawn."
        history += f" It shortens the period in Section 4.1 to {value} {unit}."
    sections.append(SectionSpec("6", "Revision history", [history]))
    return sections
