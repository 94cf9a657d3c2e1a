"""Helpers shared by the command modules: resolving game arguments and loading specs."""

from __future__ import annotations

from pathlib import Path

from cardgen.spec.load import all_spec_folders, find_spec_folder


def resolve_games(games: list[str] | None) -> list[Path]:
    """Spec folders for game ids or folders; every game under specs/ when none are given."""
    if not games:
        return all_spec_folders()
    return [find_spec_folder(name) for name in games]
