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
    monkeypatch.setattr(games, "_entry_points_loaded", False)
    monkeypatch.setattr(games, "_tried", set())
    monkeypatch.setattr(games, "_errors", {})
    errors = games.package_errors()
    assert errors == {"broken_game": "RuntimeError: half-written rules module"}

    from cardgen.engine.agents import _AGENTS
    from cardgen.engine.mechanics import registered_mechanics

    assert "keramikos-expectimax" in _AGENTS
    assert {"ceratopsians", "ceramus_mural"} <= set(registered_mechanics())


def _install_distribution(site: Path, name: str, module_source: str, entry: str) -> None:
    """A minimal installed distribution in ``site``: one module and a dist-info declaring a cardgen.games entry point."""
    (site / f"{name}.py").write_text(module_source, encoding="utf-8")
    info = site / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[cardgen.games]\n{name} = {entry}\n", encoding="utf-8")


OUTSIDE_GAME = '''
from cardgen.engine.core import register_game
from engine.toy_rules import ToyGame


class OutsideToy(ToyGame):
    rules_id = "outside-toy"


def register():
    register_game("outside-toy", OutsideToy)
'''


def test_a_game_installed_outside_cardgen_registers_through_its_entry_point(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import shutil

    from cardgen.engine.core import make_game, registered_rules
    from cardgen.spec.load import load_spec
    from cardgen.catalogue import validate_folder

    site = tmp_path / "site"
    site.mkdir()
    _install_distribution(site, "outside_toy_game", OUTSIDE_GAME, "outside_toy_game:register")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    monkeypatch.setattr(games, "_loaded", False)
    monkeypatch.setattr(games, "_entry_points_loaded", False)
    monkeypatch.setattr(games, "_tried", set())
    monkeypatch.setattr(games, "_errors", {})
    assert "outside-toy" in registered_rules()
    assert games.package_errors() == {}

    folder = tmp_path / "toy"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "toy", folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("rules: toy", "rules: outside-toy")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    assert not [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG160"]
    loaded = load_spec(folder)
    assert loaded.spec is not None
    state = make_game(loaded.spec, 2).new_initial_state(0)
    assert state.legal_actions()


def test_a_broken_entry_point_is_reported_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    site = tmp_path / "site"
    site.mkdir()
    _install_distribution(site, "broken_outside_game", "raise ImportError('missing dependency xyz')\n", "broken_outside_game")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    monkeypatch.setattr(games, "_loaded", False)
    monkeypatch.setattr(games, "_entry_points_loaded", False)
    monkeypatch.setattr(games, "_tried", set())
    monkeypatch.setattr(games, "_errors", {})
    errors = games.package_errors()
    assert errors == {"broken_outside_game (entry point broken_outside_game)": "ImportError: missing dependency xyz"}
