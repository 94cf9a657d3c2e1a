"""A game package that fails to import does not take the other games down, and its error is named."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardgen.games as games


def test_a_broken_package_is_reported_and_the_others_still_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "broken_game"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise RuntimeError('half-written rules module')\n", encoding="utf-8")
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    monkeypatch.setattr(games, "_loaded", False)
    monkeypatch.setattr(games, "_errors", {})
    errors = games.package_errors()
    assert errors == {"broken_game": "RuntimeError: half-written rules module"}

    from cardgen.engine.core import registered_rules

    assert {"ceramus", "ceratopsians", "keramikos", "mausoleum-guardians"} <= set(registered_rules())
