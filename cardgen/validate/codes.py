"""The catalogue of every finding code, gathered from the modules that declare them (docs/findings.md)."""

from __future__ import annotations

import importlib

CODE_MODULES = (
    "cardgen.validate.static",
    "cardgen.validate.contract",
    "cardgen.validate.rules_data",
    "cardgen.validate.prose",
    "cardgen.validate.budgets",
    "cardgen.render.checks",
    "cardgen.rulebook.checks",
    "cardgen.engine.quick",
    "cardgen.export.ink",
    "cardgen.export.profiles",
)
"""Every module that declares finding codes with ``register_codes``."""

RANGES = (
    ("CG0", "Reading the files"),
    ("CG1", "The spec's cross-checks"),
    ("CG2", "Faces, print safety and palettes"),
    ("CG3", "Translations and rulebooks"),
    ("CG5", "Simulation: solvability and balance"),
    ("CG6", "Print-shop exports"),
)


def all_codes() -> dict[str, str]:
    """Every code cardgen can report, with what it means, sorted."""
    from cardgen.validate.registry import CODES

    for name in CODE_MODULES:
        importlib.import_module(name)
    return dict(sorted(CODES.items()))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


RANGE_NOTES: dict[str, str] = {
    "CG5": (
        "Which simulation findings are errors. `cardgen check` and `cardgen validate` exit 1 on errors only. "
        "Errors are what no designer would ship and what the evidence proves: a setup that cannot be dealt (CG502), "
        "a dead end (CG503), a game past its length bound (CG504), a crash (CG506), scores outside their bounds (CG507), "
        "broken conservation (CG508), a card the rules module proves can never be used at a player count (CG505, with the "
        "reason), and a degenerate game (CG513-CG515), each with the number of completed playouts it rests on. Warnings "
        "are judgements or unproved observations: a card no random, skill or targeted game happened to use (CG505, with "
        "the games it rests on), seats whose 95% Wilson intervals show a gap wider than `balance.max_seat_gap` (CG509), "
        "and a skill edge below `balance.min_skill_edge` (CG510). Every figure comes from seeded playouts whose number is "
        "fixed by the spec (never by a clock), so one spec and seed give one verdict on any machine."
    ),
}
"""A paragraph printed under a range's table (how its findings are judged)."""


def findings_reference_markdown() -> str:
    """The reference page of every finding code, grouped by layer."""
    codes = all_codes()
    lines = [
        "# Finding codes",
        "",
        "Every problem cardgen reports carries one of these codes, with the file, line and a fix hint.",
        "Generated from the code by `cardgen validate --list-codes`; a test fails when it is out of date.",
        "",
    ]
    for prefix, title in RANGES:
        group = {code: text for code, text in codes.items() if code.startswith(prefix)}
        if not group:
            continue
        lines += [f"## {title}", "", "| code | meaning |", "| --- | --- |"]
        lines += [f"| {code} | {_cell(text)} |" for code, text in group.items()]
        lines.append("")
        if prefix in RANGE_NOTES:
            lines += [RANGE_NOTES[prefix], ""]
    return "\n".join(lines)
