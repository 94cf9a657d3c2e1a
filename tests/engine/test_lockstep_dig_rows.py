"""Lockstep: Keramikos' setup and refill written as rules data agree with the hand-written Keramikos engine.

``tests/fixtures/dig-rows`` carries Keramikos' decks (same cards, same order) and writes its setup and its refill
with the rows of piles (``under``), the setup loop (``repeat ... until``), ``shuffle_back``, ``piles(ROW, ...)`` and
the pile choice of a move. Over thousands of seeds at every player count, both engines must lay out the same
stacks and leave the same deck, and then, drawing one or two cards at a time into the row as random play chooses,
place every card under the same stack until the deck is empty. The rest of Keramikos' turn (marks, collecting,
the card choice across the row, Sort below the marks) is left out here; the whole game is in lockstep in
tests/engine/test_lockstep_keramikos.py.

Deliberate mappings, the only one (both list the deck in the spec's card order and shuffle it with
``random.Random(seed).shuffle``):

* The piles. The interpreter's ordered zones have their top at the end of the list, the reference's stacks at the
  start, so a reference stack is compared reversed.

``DIG_ROWS_GAMES`` sets the seeds per player count (default 1,000).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame, DataState
from reference.keramikos import KeramikosGame, KeramikosState
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

ROOT = Path(__file__).resolve().parents[2]
GAMES = int(os.environ.get("DIG_ROWS_GAMES", "1000"))


def _spec(folder: Path) -> Spec:
    loaded = load_spec(folder)
    assert loaded.spec is not None, [finding.render() for finding in loaded.findings]
    return loaded.spec


def _data_view(state: DataState) -> tuple[list[str], list[list[str]]]:
    g = state.g
    deck = [g.card_ids[d] for d in state.z[g.slot("deck")]]
    base = g.tables.zone_index["stacks"]
    stacks = [[g.card_ids[d] for d in reversed(state.z[base + pile])] for pile in range(g.tables.rows["stacks"][1])]
    return deck, stacks


def _reference_view(state: KeramikosState) -> tuple[list[str], list[list[str]]]:
    g = state.g
    return [g.kind_ids[k] for k in state.deck], [[g.kind_ids[k] for k in stack] for stack in state.stacks]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_and_refill_agree_with_the_hand_written_engine(players: int) -> None:
    data = make_game(_spec(ROOT / "tests" / "fixtures" / "dig-rows"), players)
    assert isinstance(data, DataGame)
    reference = KeramikosGame(_spec(ROOT / "specs" / "keramikos"), players)
    draw, draw_two = (data.options[k].index * data.width for k in range(2))
    second_cards = 0
    for seed in range(GAMES):
        state = data.new_initial_state(seed)
        other = reference.new_initial_state(seed)
        assert _data_view(state) == _reference_view(other), f"setup differs at seed {seed}"
        assert data.tables.rows["stacks"][1] == len(other.stacks)
        second_cards += sum(len(stack) > 1 for stack in other.stacks)
        rng = random.Random(seed)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            assert action in (draw, draw_two)
            state.apply_action(action)
            other._refill(2 if action == draw_two else 1)
            assert _data_view(state) == _reference_view(other), f"refill differs at seed {seed}"
            assert not state.conservation_errors()
        assert not other.deck
    assert second_cards > 0  # the setup's last card, beneath a stack of its level, was met
