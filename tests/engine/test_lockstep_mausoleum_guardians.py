"""Lockstep: Mausoleum Guardians written as rules data and its hand-written engine agree move for move.

At every decision of seeded random games, at every player count and under every choice of every rule
option, both engines must offer the same moves (by a canonical name), show the same position (draw pile
in order, hands, areas, character rows, Protections laid out, discard pile, the card an Exchange sets
aside, scores, the seat to decide) and end at the same moment, for the same reason, with the same
ranking. The reference (tests/reference/mausoleum_guardians.py) is the engine the game shipped with,
written from the rulebook and its numbered clarifications; the data is the spec's ``rules:`` mapping.

Deliberate mappings, the only ones:

* The deal. Both shuffle the deck in the spec's card order with ``random.Random(seed).shuffle``; the
  interpreter's pile has its top at the end of the list and the reference's at the start, so the
  reference is given the shuffled list reversed.
* A random take from a hand holding a single design. The reference takes that card at once; the
  interpreter's ``steal`` is a chance step with one outcome, which this test applies before comparing
  (a chance step with one outcome is no decision).
* Names. ``play CARD`` (with ``at P<n>`` for an attack) and ``pass`` on a turn; ``pick CARD`` for every
  card chosen after a play (a discard down to the hand limit, the Earthquake's target's card, the
  Invasion's, the Discovery's, the card an Exchange gives); ``answer CARD`` and ``let through`` for the
  target of an attack who may answer it; ``take CARD`` for the random card taken.
* The end. The reference's "every player passed with the pile empty" is the interpreter's ``all_pass``
  (Termination.NO_LEGAL_MOVES) and its "pile and hands empty" is ``all_seats`` (Termination.NORMAL).

``MG_LOCKSTEP_GAMES`` sets the games per player count and choice of options (default: 400 per player count
at the shipped options and 40 per player count under each of the 11 other combinations, 2,520 games in
about 25 s of CPU; ``MG_LOCKSTEP_GAMES=400`` plays 14,400).
"""

from __future__ import annotations

import itertools
import os
import random
from pathlib import Path
from typing import Any

import pytest

from cardgen.engine.core import CHANCE, Termination, make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

from reference import mausoleum_guardians as ref

SPEC = Path(__file__).resolve().parents[2] / "specs" / "mausoleum-guardians"
DEFAULT_GAMES = int(os.environ.get("MG_LOCKSTEP_GAMES", "400"))
"""Games per player count at the shipped options."""
OPTION_GAMES = int(os.environ.get("MG_LOCKSTEP_GAMES", "40"))
"""Games per player count under each other combination of the rule options."""
CHOICES = {"protection": ("must_answer", "may_answer", "in_advance"), "sculptors": ("invasion", "theft"), "mausolo": ("on_play", "at_end")}
ENDS = {Termination.DECK_EXHAUSTED: Termination.NO_LEGAL_MOVES, Termination.HANDS_EMPTY: Termination.NORMAL}
"""The reference's reasons to end, as the interpreter gives them."""
PICKS = {"limit.discard", "quake.crumble", "invade.seize", "find.unearth", "swap.give"}
"""The interpreter's options that choose a card after a play (the reference's pick phases)."""


def data_move(state: DataState, action: int) -> str:
    """An interpreter action by its canonical name."""
    game = state.g
    index, parameter = divmod(action, game.width)
    if index >= game.chance_base:
        return f"take {game.card_ids[parameter]}"
    option = game.options[index]
    target = -1
    if option.target is not None:
        target, parameter = divmod(parameter, game.card_width)
    if option.key == "play.pass":
        return "pass"
    if option.key == "defend.let_through":
        return "let through"
    if option.key in ("defend.answer", "defend.spend"):
        return f"answer {game.card_ids[parameter]}"
    if option.key in PICKS:
        return f"pick {game.card_ids[parameter]}"
    assert option.key.startswith("play."), option.key
    return f"play {game.card_ids[parameter]}" + (f" at P{target + 1}" if target >= 0 else "")


def reference_move(state: ref.MausoleumState, action: int) -> str:
    """A reference action by its canonical name."""
    g = state.g
    ids = g.card_ids
    if state.phase == ref.PLAY:
        if action == ref.PASS:
            return "pass"
        if action < g.target_base:
            return f"play {ids[action - g.play_base]}"
        kind, target = divmod(action - g.target_base, g.max_seats)
        return f"play {ids[kind]} at P{target + 1}"
    if state.phase == ref.DEFEND:
        return "let through" if action == ref.PASS else f"answer {ids[action - g.pick_base]}"
    if state.phase == ref.TAKE_CHANCE:
        return f"take {ids[action - g.pick_base]}"
    return f"pick {ids[action - g.pick_base]}"


def data_position(state: DataState) -> dict[str, Any]:
    game = state.g
    ids, P = game.card_ids, game.num_players

    def cards(zone: str, seat: int = 0) -> list[str]:
        return sorted(ids[d] for d in state.z[game.slot(zone, seat)])

    return {
        "pile": [ids[d] for d in reversed(state.z[game.slot("pile")])],
        "hands": [cards("hand", seat) for seat in range(P)],
        "areas": [cards("area", seat) for seat in range(P)],
        "rows": [cards("row", seat) for seat in range(P)],
        "shields": [cards("shields", seat) for seat in range(P)],
        "discard": cards("discard"),
        "aside": cards("aside"),
        "scores": state.scores(),
        "to_move": None if state.is_terminal() else state.current_player(),
    }


def reference_position(state: ref.MausoleumState) -> dict[str, Any]:
    g = state.g
    ids, K, P = g.card_ids, g.kinds, g.num_players

    def cards(zone: list[int], seat: int = 0) -> list[str]:
        return sorted(ids[k] for k in range(K) for _ in range(zone[seat * K + k]))

    discard = list(state.discard)
    if state.pending >= 0:  # the card being resolved: the interpreter lays it on the discard pile at once
        discard[state.pending] += 1
    return {
        "pile": [ids[k] for k in state.pile[state.top :]],
        "hands": [cards(state.hands, seat) for seat in range(P)],
        "areas": [cards(state.area, seat) for seat in range(P)],
        "rows": [cards(state.chars, seat) for seat in range(P)],
        "shields": [cards(state.shields, seat) for seat in range(P)],
        "discard": cards(discard),
        "aside": [ids[state.given]] if state.given >= 0 else [],
        "scores": state.scores(),
        "to_move": None if state.is_terminal() else state.current_player(),
    }


def settle(state: DataState) -> None:
    """Apply a chance step with a single outcome (the reference takes that card at once)."""
    while not state.is_terminal() and state.current_player() == CHANCE and len(state.chance_outcomes()) == 1:
        state.apply_action(state.chance_outcomes()[0][0])


def moves(state: Any, name: Any) -> dict[str, tuple[int, float]]:
    """Every legal action by its canonical name, with its probability at a chance step (1.0 otherwise)."""
    if state.current_player() == CHANCE:
        return {name(state, action): (action, p) for action, p in state.chance_outcomes()}
    return {name(state, action): (action, 1.0) for action in state.legal_actions()}


def play_lockstep(spec: Spec, players: int, seed: int) -> int:
    """Play one seeded random game on both engines, comparing at every decision; the number of decisions."""
    data_game = make_game(spec, players)
    assert isinstance(data_game, DataGame)
    data = data_game.new_initial_state(seed)
    reference_game = ref.MausoleumGame(spec, players)
    pile = [k for k in range(reference_game.kinds) for _ in range(reference_game.copies[k])]
    random.Random(seed).shuffle(pile)
    reference = ref.MausoleumState(reference_game, tuple(reversed(pile)), deal=True)
    rng, ply = random.Random(seed), 0
    where = f"{players} players, options {dict(spec.options)}, seed {seed}"
    while True:
        settle(data)
        assert data_position(data) == reference_position(reference), f"{where}, ply {ply}: positions differ"
        data_moves, reference_moves = moves(data, data_move), moves(reference, reference_move)
        assert sorted(data_moves) == sorted(reference_moves), f"{where}, ply {ply}: moves differ"
        if not data_moves:
            break
        for name, (_, p) in data_moves.items():
            assert p == pytest.approx(reference_moves[name][1]), f"{where}, ply {ply}: chance of {name} differs"
        move = rng.choice(sorted(data_moves))
        data.apply_action(data_moves[move][0])
        reference.apply_action(reference_moves[move][0])
        ply += 1
    assert data.is_terminal() and reference.is_terminal(), where
    reason = reference.termination()
    assert reason is not None and data.termination() == ENDS[reason], where
    assert data.ranking() == reference.ranking(), where
    assert data.conservation_errors() == [] and reference.conservation_errors() == [], where
    return ply


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(SPEC)
    assert loaded.spec is not None
    return loaded.spec


def with_options(spec: Spec, **options: str) -> Spec:
    return spec.model_copy(update={"options": {**spec.options, **options}})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_data_and_reference_agree_at_the_shipped_options(spec: Spec, players: int) -> None:
    assert isinstance(make_game(spec, players), DataGame), "Mausoleum Guardians is played from its rules data"
    decisions = sum(play_lockstep(spec, players, seed) for seed in range(DEFAULT_GAMES))
    assert decisions > DEFAULT_GAMES * 20  # real games, not stubs


OTHER_CHOICES = [
    dict(zip(CHOICES, combination))
    for combination in itertools.product(*CHOICES.values())
    if dict(zip(CHOICES, combination)) != {"protection": "must_answer", "sculptors": "invasion", "mausolo": "on_play"}
]


@pytest.mark.parametrize("options", OTHER_CHOICES, ids=lambda o: "-".join(o.values()))
def test_data_and_reference_agree_under_every_rule_option(spec: Spec, options: dict[str, str]) -> None:
    varied = with_options(spec, **options)
    for players in (2, 3, 4):
        for seed in range(OPTION_GAMES):
            play_lockstep(varied, players, 1000 + seed)
