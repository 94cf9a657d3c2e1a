"""Helpers shared by the command modules: resolving game arguments and loading specs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable

import typer

from cardgen.findings import format_findings

if TYPE_CHECKING:
    from cardgen.spec.load import LoadedSpec
    from cardgen.validate.registry import CheckKind


def resolve_games(games: list[str] | None) -> list[Path]:
    """Spec folders for game ids or folders; every game under specs/ when none are given."""
    from cardgen.api import every_spec, find_spec

    if not games:
        return every_spec()
    return [find_spec(name) for name in games]


def load_or_refuse(game: str, purpose: str, kinds: Iterable[CheckKind] = ("static",), skip: Iterable[str] = ()) -> LoadedSpec:
    """The validated spec of ``game`` (:func:`cardgen.api.load_checked`), or its errors printed and exit 1.

    ``purpose`` ends the refusal: ``<folder>: the spec has N error(s); fix them before <purpose>``.
    """
    from cardgen.api import SpecRefused, load_checked
    from cardgen.cli.app import EXIT_FINDINGS

    try:
        return load_checked(game, kinds, skip)
    except SpecRefused as refused:
        typer.echo(format_findings(refused.findings, "text"), err=True)
        typer.echo(f"{refused.folder}: the spec has {len(refused.findings)} error(s); fix them before {purpose}", err=True)
        raise typer.Exit(EXIT_FINDINGS) from None
