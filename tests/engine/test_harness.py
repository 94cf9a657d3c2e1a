"""The conformance harness over the toy and over every game registered under specs/."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.engine.core import make_game, registered_rules
from cardgen.engine.harness import conformance_problems, conformance_report
from cardgen.spec.load import LoadedSpec, load_spec

from .toy_rules import ToyGame, ToyState

SPECS = Path(__file__).resolve().parents[2] / "specs"
SEEDS = (0, 1, 2)


def _spec_folders() -> list[Path]:
    return sorted(p.parent for p in SPECS.glob("*/game.yaml")) if SPECS.is_dir() else []


@pytest.mark.parametrize("players", [1, 2, 3])
def test_toy_conforms(toy: LoadedSpec, players: int) -> None:
    assert toy.spec is not None
    game = make_game(toy.spec, players)
    assert conformance_report(game, range(6)) == {}


@pytest.mark.parametrize("folder", _spec_folders(), ids=lambda p: p.name)
def test_real_game_conforms(folder: Path) -> None:
    loaded = load_spec(folder)
    assert loaded.spec is not None, [f.render() for f in loaded.findings]
    spec = loaded.spec
    assert spec.rules is not None, f"{folder.name} names no rules module, so nothing can check that it plays"
    if spec.rules_module is not None:  # rules as data need no package: the interpreter plays them
        assert spec.rules_module in registered_rules(), f"{folder.name} names rules {spec.rules_module!r}, which no package registers"
    problems = {}
    for players in range(spec.players.min, spec.players.max + 1):
        game = make_game(spec, players)
        for seed, found in conformance_report(game, SEEDS).items():
            problems[(players, seed)] = found
    assert problems == {}


class _LeakyState(ToyState):
    """A toy whose clone shares the row with its original: the harness must notice."""

    def clone(self) -> "_LeakyState":
        other = _LeakyState.__new__(_LeakyState)
        other.game, other.bag, other.row = self.game, self.bag[:], self.row  # the row is shared
        other.taken = [t[:] for t in self.taken]
        other.points = self.points[:]
        other.seat, other.turn, other.roll = self.seat, self.turn, self.roll
        return other


class _LeakyGame(ToyGame):
    def new_initial_state(self, seed: int) -> "_LeakyState":
        state = super().new_initial_state(seed)
        leaky = _LeakyState(self, state.bag, state.row)
        return leaky


class _UnsortedState(ToyState):
    def legal_actions(self) -> list[int]:
        return list(reversed(super().legal_actions()))


class _UnsortedGame(ToyGame):
    def new_initial_state(self, seed: int) -> "_UnsortedState":
        state = super().new_initial_state(seed)
        return _UnsortedState(self, state.bag, state.row)


def test_harness_catches_a_leaky_clone(toy: LoadedSpec) -> None:
    assert toy.spec is not None
    problems = conformance_problems(_LeakyGame(toy.spec, 2), 0)
    assert any("changed the original" in p for p in problems)


def test_harness_catches_unsorted_actions(toy: LoadedSpec) -> None:
    assert toy.spec is not None
    problems = conformance_problems(_UnsortedGame(toy.spec, 2), 0)
    assert any("not sorted" in p for p in problems)


def test_harness_catches_a_dead_end_and_a_broken_bound(variant) -> None:  # type: ignore[no-untyped-def]
    dead = variant({"test_dead_end_turn": 2}, name="dead")
    assert any("dead end" in p for p in conformance_problems(make_game(dead.spec, 2), 0))
    endless = variant({"test_never_ends": 1}, name="endless")
    assert any("max_game_length" in p for p in conformance_problems(make_game(endless.spec, 1), 0))
