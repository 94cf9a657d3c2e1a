"""The interpreter's shortcuts agree with the plain way of doing the same thing, in every position of random games.

Each shortcut is made when the game is made, for speed (docs/decisions.md, "Rules as data: Mausoleum Guardians
written as data", Speed): an option's actions listed by a function of its own (``offers.py``) instead of
``DataState._offered``; a run of steps with conditions passed over by one compiled function instead of one
condition at a time; an option's seats tried in one call; and the end looked at only where something it reads may
have changed; and compiled expressions and effects that skip work where a value is known. Here each is compared with the plain way over the positions of random games of every data game
shipped or kept as a fixture, at every player count and under every choice of its rule options (Mausoleum
Guardians' options change which shapes of option and step it has).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from cardgen.engine.core import CHANCE
from cardgen.engine.interpreter import DataGame, DataState, effects, rows
from cardgen.engine.interpreter.compile import _Emitter, compile_expression
from cardgen.engine.interpreter.options import BY_TARGET
from cardgen.spec.load import load_spec
from engine.spec_copies import data_game, edited_copy

ROOT = Path(__file__).resolve().parents[2]


def _data_folders() -> list[Path]:
    """Every shipped spec and fixture whose rules are data (a mapping), not a module's name."""
    out = []
    for folder in sorted([*(ROOT / "specs").iterdir(), *(ROOT / "tests" / "fixtures").iterdir()]):
        path = folder / "game.yaml"
        if not path.is_file():
            continue
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        if isinstance(data, dict) and isinstance(data.get("rules"), dict) and isinstance(data.get("players"), dict):
            out.append(folder)
    return out


def _variants(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """Each data folder as it is, and under every other choice of each of its rule options (one at a time)."""
    for folder in _data_folders():
        yield folder.name, folder
        rules = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))["rules"]
        for name, option in (rules.get("options") or {}).items():
            for choice in option["choices"]:
                if choice == option.get("default"):
                    continue

                def choose(data: dict[str, Any], name: str = name, choice: str = choice) -> None:
                    data.setdefault("options", {})[name] = choice

                yield f"{folder.name}[{name}={choice}]", edited_copy(folder, tmp_path / f"{name}-{choice}", choose)


def _games(tmp_path: Path) -> Iterator[tuple[str, DataGame]]:
    for name, folder in _variants(tmp_path):
        loaded = load_spec(folder)
        assert loaded.spec is not None, name
        players = loaded.spec.players
        for count in range(players.min, players.max + 1):
            try:
                yield f"{name} {count}p", data_game(folder, count)
            except ValueError:  # no setup for this count
                continue


def _positions(game: DataGame, games: int = 6) -> Iterator[DataState]:
    """The positions of ``games`` random games (a copy of each, so the caller may change it)."""
    for seed in range(games):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        for _ in range(3000):
            if state.is_terminal():
                break
            yield state.clone()
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def _plain_legal(state: DataState) -> list[int]:
    """The legal actions of a decision step listed by DataState._offered alone, option by option, as before the shortcuts."""
    g = state.g
    actions: list[int] = []
    fallbacks = []
    seen: dict[int, list[int]] = {}
    for option in g.live_steps[state.step]:
        if option.otherwise:
            fallbacks.append(option)
        else:
            actions.extend(state._offered(option, seen))
    if not actions:
        for option in fallbacks:
            actions.extend(state._offered(option, seen))
    return sorted(actions)


def _plain_pass_over(state: DataState, step: int) -> int:
    """The first step from ``step`` on whose condition holds, one condition at a time (len(steps): none)."""
    g = state.g
    while step < len(g.step_when):
        when = g.step_when[step]
        if when is None or when(state, state.tg if g.step_by[step] == BY_TARGET else state.seat, 0):
            return step
        step += 1
    return step


def _plain_aimed(state: DataState, target: Any, seat: int) -> list[int]:
    aim, seats = state.tg, []
    for candidate in range(state.g.num_players):
        state.tg = candidate
        if target(state, seat, 0):
            seats.append(candidate)
    state.tg = aim
    return seats


def test_the_data_games_are_all_here() -> None:
    names = {folder.name for folder in _data_folders()}
    assert {"crazy-eights", "hearts", "no-thanks", "mausoleum-guardians", "ceratopsians", "dice-steal", "ambush", "potsherds"} <= names


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, DataGame]]:
    """Every data game, made once for the tests of this module that do not change how games are made."""
    return list(_games(tmp_path_factory.mktemp("games")))


def test_listing_conditions_and_aims_agree_with_the_plain_way(games: list[tuple[str, DataGame]]) -> None:
    compared = 0
    for name, game in games:
        for state in _positions(game):
            before = state.fingerprint()
            for step in range(len(game.step_when)):
                assert (pass_over := game.pass_over[step]) is None or pass_over(state) == _plain_pass_over(state, step), (name, step)
            for option in game.options:
                if option.aimed_seats is not None:
                    for seat in range(game.num_players):
                        assert option.aimed_seats(state, seat) == _plain_aimed(state, option.target, seat), (name, option.key)
            if state.current_player() != CHANCE and state.pending < 0 and state.arranging < 0 and state.step >= 0:
                assert state.legal_actions() == _plain_legal(state), (name, state.step)
                decider = state.decider
                for seat in range(game.num_players):  # whether a seat is offered anything, as a reaction's window asks
                    state.decider = seat
                    assert game.step_any[state.step](state, seat) == bool(_plain_legal(state)), (name, state.step, seat)
                state.decider = decider
                seat, seen = state.deciding_seat(), dict[int, list[int]]()
                listed = sorted(a for offer in game.step_offers[state.step] + game.step_fallbacks[state.step] for a in offer(state, seat, seen))
                assert listed == sorted(a for o in game.live_steps[state.step] for a in state._offered(o)), (name, state.step)
                compared += 1
            assert state.fingerprint() == before, name  # listing and reading conditions change nothing
    assert compared > 5000


def _looking_always(game: DataGame) -> DataGame:
    """A copy of ``game`` that looks at its end wherever it did before the shortcut: after every action and as every turn begins."""
    other = DataGame.__new__(DataGame)
    other.__dict__.update(game.__dict__)
    other.end_after_action = other.end_as_turn_starts = not game.end_at_turn
    return other


def _trail(game: DataGame, seed: int) -> tuple[list[tuple[int, tuple[object, ...]]], object, list[int]]:
    """A random game of ``seed``: every action with the position after it, the end and the scores."""
    state, rng = game.new_initial_state(seed), random.Random(seed)
    trail: list[tuple[int, tuple[object, ...]]] = []
    while not state.is_terminal() and len(trail) < 3000:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        trail.append((action, state.fingerprint()))
    return trail, state.termination(), state.scores()


def test_looking_at_the_end_only_where_it_may_have_changed_changes_no_game(games: list[tuple[str, DataGame]]) -> None:
    for name, game in games:
        always = _looking_always(game)
        for seed in range(8):
            assert _trail(game, seed) == _trail(always, seed), (name, seed)


def test_compiled_shortcuts_change_no_game(games: list[tuple[str, DataGame]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled expressions compare and add numbers that always have a value without the guard for a missing value
    (``_gt``, ``_add``...), parts that read only numbers and rule options are worked out when the game is made, a
    count of piles or of a zone's cards of one value compared with 0 stops at the first, a row's piles are read one
    by one with their places known, a pile choice is worked out per design or read as one expression, every card
    out of a row moves in one pass, a per-pile counter minus itself is emptied at once, and a move or an add of a
    fixed amount for the deciding seat skips reading the amount and the seats; the games compiled without any of
    these play the same."""
    fast = games
    monkeypatch.setattr(_Emitter, "has_value", lambda self, node: False)
    monkeypatch.setattr(_Emitter, "shortcuts", False)
    monkeypatch.setattr(rows, "SHORTCUTS", False)
    monkeypatch.setattr(effects, "steady_amount", lambda source, tables: None)
    plain = list(_games(tmp_path / "plain"))
    assert [name for name, _ in fast] == [name for name, _ in plain]
    for (name, game), (_, slow) in zip(fast, plain):
        for seed in range(6):
            assert _trail(game, seed) == _trail(slow, seed), (name, seed)


@pytest.mark.parametrize(
    "source, value",
    [
        ("top(discard).rank > 3", False),  # the top of an empty zone has no value: no order holds
        ("count(hand) * 2 > top(discard).rank", False),
        ("3 <= top(discard).rank", False),
        ("-top(discard).rank", None),
        ("top(discard).rank + count(hand)", None),
        ("min(top(discard).rank, 3)", None),
        ("count(hand) + draws > 4", True),  # a count and a counter always have a value: compared as numbers
        ("count(hand) - numbers.max_draws * 2", -1),
        ("max(count(hand), draws) >= 5", True),
    ],
)
def test_a_missing_value_still_gives_no_value(source: str, value: object) -> None:
    """Only sides that always have a value are compared and added unguarded; a missing value still gives none."""
    game = data_game(ROOT / "specs" / "crazy-eights", 2)
    state = game.new_initial_state(0)
    state.z[game.slot("discard")].clear()
    state.z[game.slot("hand", 0)][:] = state.z[game.slot("hand", 0)][:5]
    assert game.rules.counters["draws"].reset == "turn" and game.tables.constants["numbers.max_draws"] == 3
    assert compile_expression(source, game.tables)(state, 0, 0) == value
