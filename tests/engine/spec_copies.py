"""Edited copies of a rules-data test fixture, and the data game of one: what the rules-data tests share.

A test that needs a variant of a fixture (a new option, a broken expression) copies the whole folder
under ``tmp_path``, edits its ``game.yaml`` as plain data and reads it back through the loader, so the
variant is checked and played exactly as a designer's spec would be.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import yaml

from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame
from cardgen.spec.load import load_spec

Change = Callable[[dict[str, Any]], object]
"""An edit of a spec's YAML data, in place (its return value is ignored)."""


def edited_copy(fixture: Path, tmp_path: Path, *changes: Change) -> Path:
    """A copy of ``fixture`` under ``tmp_path`` with ``changes`` applied to its game.yaml in order; the copy's folder."""
    folder = tmp_path / fixture.name
    shutil.copytree(fixture, folder)
    if changes:
        edit_spec(folder, *changes)
    return folder


def edit_spec(folder: Path, *changes: Change) -> None:
    """Apply ``changes`` in order to the YAML data of ``folder``'s game.yaml and write it back."""
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for change in changes:
        change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def data_game(folder: Path, players: int) -> DataGame:
    """The interpreter's game of the spec in ``folder`` at ``players`` (the spec must load)."""
    loaded = load_spec(folder)
    assert loaded.spec is not None, [finding.render() for finding in loaded.findings]
    game = make_game(loaded.spec, players)
    assert isinstance(game, DataGame)
    return game


def step_of(data: dict[str, Any], step_id: str) -> Any:
    """The turn step ``step_id`` in a spec's YAML data (to edit in place)."""
    return next(step for step in data["rules"]["turn"] if step["id"] == step_id)


def option_of(data: dict[str, Any], option_id: str) -> Any:
    """The option ``option_id`` of any turn step in a spec's YAML data (to edit in place)."""
    return next(o for step in data["rules"]["turn"] for o in step["options"] if o["id"] == option_id)
