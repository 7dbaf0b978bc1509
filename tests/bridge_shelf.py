"""A small bridge shelf (paper §6.14's bridge check): the rule in one document, a renamed place in a second, the event
in a third; the question names only the first and third. Distractor documents pad it past the test's reading budget."""

from __future__ import annotations

from pathlib import Path

from answer_shelves import compile_shelf

QUESTION = "Under the Port Rules, was the fuel spill in the Incident Log 2025 reported to the Harbour Master in time?"

_FILLER = {
    "Mooring": "Vessels moor bow first at the {ship} quay. Lines are doubled in a northerly gale. The duty officer {officer} "
               "inspects every line at dusk and notes loose fenders in the quay book.",
    "Pilotage": "Pilots board the {ship} at the outer buoy. A pilot ladder is rigged on the lee side, and the pilot boat "
                "{officer} keeps station until the pilot is aboard.",
    "Fees": "Berth dues for the {ship} are charged per metre of length per day. Water and shore power are billed by "
            "meter reading, countersigned by {officer}.",
    "Waste": "Bilge water and oily waste from the {ship} go to the reception barge, never over the side. The barge master "
             "{officer} signs the waste receipt, and the receipt stays aboard for two years for the flag inspector.",
    "Security": "Visitors to the {ship} show a pass at the gatehouse. The security officer {officer} keeps the visitor list, "
                "and a lost pass is cancelled the same shift and replaced at the gatehouse window.",
    "Weather": "When the wind passes force eight the {ship} doubles her lines and keeps an engineer on watch. The harbour "
               "radio repeats the forecast every four hours, read out by {officer} on the working channel.",
}

DOCUMENTS = {
    "port-rules.md": ("Port Rules", "Spill reporting",
                      "A fuel spill at Harbor Gate must be reported to the Harbour Master within 2 hours of its discovery.",
                      ("Marlowe Star", "Ingrid Falk")),
    "berth-renaming-notice.md": ("Berth Renaming Notice", "New berth names",
                                 "Since the spring survey the berth formerly called Harbor Gate is named Wren Point on all charts and signs.",
                                 ("Osprey Crest", "Tomas Vehko")),
    "incident-log-2025.md": ("Incident Log 2025", "Spill of 12 May 2025",
                             "A fuel spill at Wren Point was discovered at 06:10 on 12 May 2025 and reported to the Harbour Master at 11:40.",
                             ("Brackley Dawn", "Sanne Oort")),
    "tariff-schedule.md": ("Tariff Schedule", "Cargo handling",
                           "Container handling costs 41 euro per move; bulk cargo is charged per tonne at the Quayside scale.",
                           ("Halcyon Reef", "Pieter Mols")),
    "crew-handbook.md": ("Crew Handbook", "Shore leave",
                         "Shore leave starts after the gangway watch is set and ends at 23:00 unless the master allows later.",
                         ("Verity Lane", "Aino Salo")),
    "dredging-plan.md": ("Dredging Plan", "Channel depth",
                         "The approach channel is dredged to 12 metres each spring by the contractor Deepline Marine.",
                         ("Corran Bay", "Lukas Brenner")),
}


def write_bridge_shelf(folder: Path) -> Path:
    """The bridge shelf's documents written into ``folder`` (created)."""
    folder.mkdir(parents=True, exist_ok=True)
    for filename, (title, heading, sentence, (ship, officer)) in sorted(DOCUMENTS.items()):
        parts = [f"# {title}", f"## {heading}", sentence]
        for filler, text in _FILLER.items():
            parts += [f"## {filler}", text.format(ship=ship, officer=officer)]
        (folder / filename).write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    return folder


def bridge_build(root: Path) -> Path:
    """The bridge shelf written under ``root`` and compiled; returns its build folder."""
    return compile_shelf(write_bridge_shelf(root / "shelves" / "harbour"), root / "build")
