"""The catalogue of every finding code, gathered from the modules that declare them (docs/findings.md)."""

from __future__ import annotations

import importlib

CODE_MODULES = (
    "cardgen.validate.static",
    "cardgen.validate.contract",
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
    return "\n".join(lines)
