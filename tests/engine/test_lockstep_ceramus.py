"""Lockstep: Ceramus written as rules data with its named mechanic, and the hand-written engine, agree move for move.

At every decision of seeded random games, at every player count (1 to 4) and under both choices of
``options.bonus_timing``, both engines must offer the same moves (by a canonical name), show the same
position (every cell's Original, style shown and owner, every reserve, the Shape cards in each hand and
those revealed in order, where each Ceramas card is, the bonus waiting for its tiles with the tiles it may
still take and those already moved, whether this turn's Shape is mirrored, the seat to decide, the scores)
and end at the same moment with the same ranking. The reference (tests/reference/ceramus.py) is the rules
module the game shipped with; the data is the spec's ``rules:`` mapping, whose Mural is the mechanic
``ceramus_mural``.

Deliberate mappings, the only ones:

* The deal. The reference is given the data game's deal: the Mural's Originals cell by cell as the
  mechanic laid them, each seat's Shape cards and the cards left undealt (the two engines draw the
  same things in a different order from the seeded generator, so the test does not ask for the same draws).
* Names. ``reveal SHAPE``, ``skip``, ``use CARD``, ``build P`` (``P`` = style * cells + the Shape's top-left
  cell, mirrored or not as the position says), ``pass``, ``add P`` (cell * styles + style), ``remove CELL``,
  ``move P`` (cell * 4 + direction) and ``stop``: :func:`cardgen.games.ceramus.position.move_name` for the
  interpreter (the solver plays its lines by these names too), ``move_name`` of the reference.
* Forced steps. The interpreter carries out a step offering one action by itself only where its rules data
  says ``auto``: "use no more bonuses" when no card is usable (the reference does not offer the bonus phase
  then) and the move on to the next round; neither is a decision of the reference.
* The end. The reference's "the first player has no Shape" (hands empty) and "no one can add a tile" (no legal
  moves) are both the data's ``end.table`` (Termination.NORMAL).

``CERAMUS_LOCKSTEP_GAMES`` sets the games per player count and choice of the option (default 250: 2,000 games).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from cardgen.engine.core import Termination, make_game
from cardgen.engine.interpreter import DataGame, DataState
from reference import ceramus as ref
from cardgen.games.ceramus.mechanic import IDLE, MOVE, CeramusMural, Mural
from cardgen.games.ceramus.position import move_name
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

FIXTURE = Path(__file__).resolve().parents[2] / "specs" / "ceramus"
GAMES = int(os.environ.get("CERAMUS_LOCKSTEP_GAMES", "250"))
PENDING = {ref.ADD: 1, ref.REMOVE: 2, ref.MOVE: 3}
"""The reference's target phases as the mechanic's waiting bonus (:data:`cardgen.games.ceramus.mechanic.ADD`...)."""


def mural_of(state: DataState) -> tuple[CeramusMural, Mural]:
    mechanic = state.g.mechanics[0]
    assert isinstance(mechanic, CeramusMural)
    return mechanic, state.m[mechanic.index]


def position(state: DataState) -> dict[str, object]:
    g = state.g
    mechanic, m = mural_of(state)
    ids = g.card_ids
    holder: dict[str, object] = {}
    for design in state.z[g.slot("row")]:
        holder[ids[design]] = "row"
    for design in state.z[g.slot("spent")]:
        holder[ids[design]] = "used"
    for seat in range(g.num_players):
        for design in state.z[g.slot("won", seat)]:
            holder[ids[design]] = seat
    counter = g.tables.counter_index
    return {
        "orig": list(m.orig), "owner": list(m.owner), "style": list(m.vstyle), "pool": list(m.pool), "on": list(m.on),
        "hands": [sorted(ids[d] for d in state.z[g.slot("hand", seat)]) for seat in range(g.num_players)],
        "played": [ids[d] for d in state.z[g.slot("played")]],
        "holder": holder,
        "pending": (m.pending, m.left if m.pending != IDLE else 0, m.moved if m.pending == MOVE else 0),
        "mirror": state.c[counter["mirrored"]] > 0 and not state.is_terminal(),
        "to_move": None if state.is_terminal() else state.current_player(),
        "scores": state.scores(),
    }


def reference_position(state: ref.CeramusState) -> dict[str, object]:
    g = state.game
    holder: dict[str, object] = {}
    for card, where in zip(g.card_ids, state.holder):
        holder[card] = "row" if where == ref.ON_TABLE else "used" if where == ref.USED else where
    pending = PENDING.get(state.phase, IDLE)
    return {
        "orig": list(state.orig), "owner": list(state.owner), "style": list(state.vstyle), "pool": list(state.pool), "on": list(state.on_mural),
        "hands": [sorted(sid for i, sid in enumerate(g.shape_ids) if hand >> i & 1) for hand in state.hands],
        "played": [g.shape_ids[i] for i in state.played],
        "holder": holder,
        "pending": (pending, state.targets_left if pending != IDLE else 0, state.moved if pending == PENDING[ref.MOVE] else 0),
        "mirror": state.mirror and not state.is_terminal(),
        "to_move": None if state.is_terminal() else state.current_player(),
        "scores": state.scores(),
    }


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(FIXTURE)
    assert loaded.spec is not None
    return loaded.spec


def test_the_fixture_is_rules_data_with_the_mechanic(spec: Spec) -> None:
    assert spec.rules_data is not None and spec.rules_data.mechanics == ["ceramus_mural"]


@pytest.mark.parametrize("timing", ["when_wanted", "start_of_turn"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_interpreter_and_reference_agree_at_every_decision(spec: Spec, players: int, timing: str) -> None:
    spec = spec.model_copy(update={"options": {**spec.options, "bonus_timing": timing}})
    game = make_game(spec, players)
    assert isinstance(game, DataGame)
    reference_game = ref.CeramusGame(spec, players)
    decisions = 0
    ends = set()
    for seed in range(GAMES):
        data = game.new_initial_state(seed)
        reference = ref.dealt_like(reference_game, data)
        rng, ply = random.Random(seed), 0
        while True:
            where = f"{players} players, {timing}, seed {seed}, ply {ply}"
            assert position(data) == reference_position(reference), f"{where}: positions differ"
            moves = {move_name(data, a): a for a in data.legal_actions()}
            reference_moves = {ref.move_name(reference, a): a for a in reference.legal_actions()}
            assert sorted(moves) == sorted(reference_moves), f"{where}: moves differ"
            if not moves:
                break
            name = rng.choice(sorted(moves))
            data.apply_action(moves[name])
            reference.apply_action(reference_moves[name])
            ply += 1
        decisions += ply
        assert data.is_terminal() and reference.is_terminal()
        assert data.termination() == Termination.NORMAL
        ends.add(reference.termination())
        assert data.conservation_errors() == [] and reference.conservation_errors() == []
        claimed = {k: v for k, v in reference.usage().items() if k.startswith("pattern:")}
        assert {k: v for k, v in data.usage().items() if k.startswith("pattern:")} == claimed
        assert data.ranking() == reference.ranking()
    assert decisions > GAMES * players
