"""The catalogue of cardgen's checks and finding codes, gathered from every layer that declares them.

Checks and codes are declared where their work is (the validator's cross-checks,
the face and rulebook checks, the quick simulation, the print-shop exports) and
register themselves in :mod:`cardgen.validate.registry` when their module is
imported. This module sits above all of them and imports them by name, so
discovery points down: the validator itself never imports a layer above it.
:func:`validate_folder` is validation with every check loaded; docs/findings.md
is :func:`findings_reference_markdown`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Iterable

from cardgen.spec.parse_cache import ResultCache
from cardgen.validate.registry import CheckKind
from cardgen.validate.runner import ValidationResult, check_folder

CHECK_MODULES = (
    "cardgen.validate.static",
    "cardgen.validate.contract",
    "cardgen.validate.rules_data",
    "cardgen.validate.prose",
    "cardgen.validate.budgets",
    "cardgen.render.checks",
    "cardgen.rulebook.checks",
    "cardgen.engine.quick",
)
"""Modules that register checks when imported."""
MODULE_KINDS: dict[str, CheckKind] = {"cardgen.render.checks": "render", "cardgen.rulebook.checks": "i18n", "cardgen.engine.quick": "sim"}
"""Check modules that register checks of one kind only: imported only when that kind is run.

The quick simulation pulls in the engine's checking, balance and worker-pool
code; a build (which runs no simulation) does not need to import it. The face
checks pull in the render layer (widgets, fonts, layouts) and the rulebook
checks the catalogs' machinery; a validation of the cross-checks alone (each
variant of ``cardgen sweep``) needs neither. A test checks that each module
registers checks of its kind only.
"""


def load_check_modules(kinds: Iterable[CheckKind] | None = None) -> None:
    """Import the modules that register validation checks (of ``kinds``; default: every module)."""
    wanted = None if kinds is None else set(kinds)
    for name in CHECK_MODULES:
        if wanted is not None and name in MODULE_KINDS and MODULE_KINDS[name] not in wanted:
            continue
        importlib.import_module(name)


def validate_folder(
    folder: Path,
    kinds: Iterable[CheckKind] = ("static", "render", "i18n", "sim"),
    skip: Iterable[str] = (),
    cache: ResultCache | None = None,
) -> ValidationResult:
    """Load and check one spec folder with every check of ``kinds`` (see :func:`cardgen.validate.runner.check_folder`)."""
    wanted = list(kinds)
    load_check_modules(["static", *wanted])
    return check_folder(folder, wanted, skip, cache)


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
