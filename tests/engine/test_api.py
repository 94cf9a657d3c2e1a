"""The library face (cardgen.api, re-exported by the cardgen package): the functions the command line itself calls."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

import cardgen
from cardgen import api
from cardgen.engine.core import Solution
from cardgen.engine.solving import SolveSummary, verify_solution
from cardgen.findings import InputError

from .conftest import TOY, toy_variant


def test_the_package_exports_the_api_lazily() -> None:
    for name in cardgen.__all__:
        assert getattr(cardgen, name) is (cardgen.__version__ if name == "__version__" else getattr(api, name))
    with pytest.raises(AttributeError):
        cardgen.no_such_function  # noqa: B018


def test_load_checked_refuses_a_spec_with_errors_and_names_them(tmp_path: Path) -> None:
    folder = tmp_path / "toy"
    folder.mkdir()
    for path in TOY.iterdir():
        if path.is_file():
            (folder / path.name).write_bytes(path.read_bytes())
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("players:", "players_typo: 1\nplayers:", 1), encoding="utf-8")
    assert api.load_spec(folder).findings  # loading alone reports, never raises
    with pytest.raises(api.SpecRefused) as refused:
        api.load_checked(folder)
    assert refused.value.findings and all(f.severity.name == "ERROR" for f in refused.value.findings)


def test_make_play_and_solve_through_the_api(tmp_path: Path) -> None:
    loaded = api.load_checked(TOY)
    game = api.make_game(loaded)
    assert game.num_players == loaded.spec.players.min  # type: ignore[union-attr]
    result = api.play_game(game, ["random"], seed=5)
    assert result.completed and result == api.play_game(game, ["random"], seed=5)
    with pytest.raises(InputError):
        api.play_game(game, ["random"] * (game.num_players + 1))
    with pytest.raises(InputError):
        api.make_game(loaded, players=99)
    solvable = api.load_checked(toy_variant(tmp_path / "toy", {"die_sides": 0, "max_turns": 6}))
    summary = SolveSummary()
    for seed in range(3):
        deal = api.solve_deal(solvable, seed)
        assert deal.verification.ok and deal.verification.reached == deal.solution.value
        summary.add(deal)
    assert summary.failed == 0 and sum(summary.distribution().values()) == 3


def test_a_wrong_line_does_not_verify(tmp_path: Path) -> None:
    solvable = api.load_checked(toy_variant(tmp_path / "toy", {"die_sides": 0, "max_turns": 6}))
    game = api.make_game(solvable)
    deal = api.solve_deal(solvable, 1, game=game)
    claimed = replace(deal.solution, value=deal.solution.value + 1)
    assert not verify_solution(game, 1, claimed).ok
    illegal: Solution = replace(deal.solution, actions=(10**6,))
    check = verify_solution(game, 1, illegal)
    assert not check.ok and math.isnan(check.reached) and "not legal" in check.lines[-1]
