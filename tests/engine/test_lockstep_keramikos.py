"""Lockstep: Keramikos written as rules data and its hand-written engine agree move for move.

At every decision of seeded random games, at every player count and under every choice of every rule
option, both engines must offer the same moves (by a canonical name), show the same position (the deck in
order, every stack with its marked cards, the markers on empty sites, collections, hands, the discard pile,
scores, the seat to decide) and end at the same moment with the same ranking. The reference is the engine
the game shipped with, written from the web page and its numbered clarifications; the data is the rules
mapping of the shipped ``specs/keramikos``.

Deliberate mappings, the only ones (both list the deck in the spec's card order and shuffle it with
``random.Random(seed).shuffle``):

* The piles. The interpreter keeps each stack as two piles of rows under the dig sites, the cards marked this
  turn (``marked``, in the order they were marked) and the others (``stacks``, top at the end of the list); the
  reference keeps one list per stack, top first, and a count of its marked cards.
* The dice. The reference's chance outcomes are the sixteen ordered pairs of faces; the interpreter's are the
  totals split by doubles. Their distributions over (total, doubles) must be equal; the outcome drawn for the
  interpreter is given to the reference as the first pair with that total and doubles.
* Burning. The reference burns in two decisions (burn, then which pottery); the interpreter in one (which
  pottery). At a roll both offer "burn" when any pottery can burn; the card burnt is then the same.
* Names. ``roll``, ``stop``, ``trash CARD``, ``sort SITE``, ``put CARD`` (Sort's order, from the top down),
  ``sabotage``, ``pass``, ``mark`` (a mark, a marker on an empty site, or a bust: the same move of the
  reference), ``mark extra``, ``reroll``, ``burn``, ``deepen SITE``, ``deepen extra SITE``, ``take CARD``,
  ``steal P<n> CARD``.
* A Steal with a single possible card. The interpreter's Steal step is forced (``auto``) when it offers one
  action, the reference waits for that one action; the test applies it to the reference.

``KERAMIKOS_LOCKSTEP_GAMES`` sets the games per player count and choice of options (default: 60 at the shipped
options and 12 under each of the 7 other combinations, per player count).
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from cardgen.engine.core import CHANCE, make_game
from cardgen.engine.interpreter import DataGame, DataState
from reference import keramikos as ref
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "specs" / "keramikos"
DEFAULT_GAMES = int(os.environ.get("KERAMIKOS_LOCKSTEP_GAMES", "60"))
OPTION_GAMES = int(os.environ.get("KERAMIKOS_LOCKSTEP_GAMES", "12"))
CHOICES = {"complete_card": ("set", "piece"), "trash_takes": ("any", "pottery"), "site_cards": ("pottery", "any")}
MARKS = {"resolve.bust", "resolve.mark", "resolve.mark_site", "resolve.mark_site_take"}


def _spec(folder: Path, options: dict[str, str]) -> Spec:
    loaded = load_spec(folder)
    assert loaded.spec is not None, [finding.render() for finding in loaded.findings]
    return loaded.spec.model_copy(update={"options": {**loaded.spec.options, **options}})


# --- names -------------------------------------------------------------------------------------------


def data_move(state: DataState, action: int) -> str:
    """An interpreter action by its canonical name ("burn CARD" for a burn: the set of moves compares it as "burn")."""
    g = state.g
    index, parameter = divmod(action, g.width)
    if index >= g.arrange_base:
        return f"put {g.card_ids[parameter]}"
    option = g.options[index]
    key = option.key
    first = g.tables.rows["stacks"][0]
    if key in MARKS:
        return "mark"
    simple = {"decide.roll": "roll", "decide.stop": "stop", "sabotage.sabotage": "sabotage", "sabotage.let_stand": "pass",
              "resolve.mark_extra": "mark extra", "resolve.reroll": "reroll"}
    if key in simple:
        return simple[key]
    if key.startswith("decide.trash_"):
        return f"trash {g.card_ids[parameter]}"
    if key == "decide.sort":
        return f"sort {g.card_ids[first + parameter]}"
    if key == "resolve.burn":
        return f"burn {g.card_ids[parameter]}"
    if key == "resolve.deepen":
        return f"deepen {g.card_ids[first + parameter]}"
    if key == "resolve.deepen_extra":
        return f"deepen extra {g.card_ids[first + parameter]}"
    if key == "take.take":
        return f"take {g.card_ids[parameter]}"
    if key in ("steal.steal", "trash_steal.steal"):
        target, card = divmod(parameter, g.card_width)
        return f"steal P{target + 1} {g.card_ids[card]}"
    raise AssertionError(f"unnamed option {key}")


def reference_move(state: ref.KeramikosState, action: int) -> str:
    """A reference action by its canonical name."""
    g = state.g
    phase = state.phase
    if phase == ref.SORTING:
        return f"put {g.kind_ids[action - ref.A_SORT_PICK]}"
    if phase == ref.SABOTAGE_WINDOW:
        return "sabotage" if action == ref.A_SABOTAGE else "pass"
    if phase == ref.TAKE:
        return f"take {g.kind_ids[action - ref.A_TAKE]}"
    if phase == ref.STEAL:
        victim, kind = divmod(action - ref.A_STEAL, 100)
        return f"steal P{victim + 1} {g.kind_ids[kind]}"
    if phase == ref.BURN:
        return f"burn {g.kind_ids[action - ref.A_BURN]}"
    if phase == ref.DECIDE:
        if action == ref.A_ROLL:
            return "roll"
        if action == ref.A_STOP:
            return "stop"
        if ref.A_TRASH <= action < ref.A_STEAL:
            return f"trash {g.kind_ids[action - ref.A_TRASH]}"
        return f"sort {g.site_ids[action - ref.A_SORT]}"
    assert phase == ref.RESOLVE, phase
    names = {ref.A_MARK: "mark", ref.A_MARK_EXTRA: "mark extra", ref.A_REROLL: "reroll", ref.A_BURN_DECLARE: "burn"}
    if action in names:
        return names[action]
    if ref.A_DEEPEN_EXTRA <= action < ref.A_BURN:
        return f"deepen extra {g.site_ids[action - ref.A_DEEPEN_EXTRA]}"
    return f"deepen {g.site_ids[action - ref.A_DEEPEN]}"


def _offered(names: list[str]) -> set[str]:
    return {"burn" if name.startswith("burn ") else name for name in names}


# --- positions ---------------------------------------------------------------------------------------


def data_position(s: DataState) -> dict[str, object]:
    g = s.g
    ids = g.card_ids
    stacks_at, marked_at = g.tables.zone_index["stacks"], g.tables.zone_index["marked"]
    piles = g.tables.rows["stacks"][1]
    site_mark = g.tables.counter_index["site_mark"]
    return {
        "deck": [ids[d] for d in s.z[g.slot("deck")]],
        "stacks": [[ids[d] for d in s.z[marked_at + p]] + [ids[d] for d in reversed(s.z[stacks_at + p])] for p in range(piles)],
        "marks": [len(s.z[marked_at + p]) for p in range(piles)],
        "site_marks": [s.c[site_mark + p] for p in range(piles)],
        "collections": [Counter(ids[d] for d in s.z[g.slot("collection", p)]) for p in range(g.num_players)],
        "hands": [Counter(ids[d] for d in s.z[g.slot("hand", p)]) for p in range(g.num_players)],
        "discard": Counter(ids[d] for d in s.z[g.slot("discard")]),
        "scores": s.scores(),
        "over": s.is_terminal(),
    }


def reference_position(s: ref.KeramikosState) -> dict[str, object]:
    g = s.g
    ids = g.kind_ids
    return {
        "deck": [ids[k] for k in s.deck],
        "stacks": [[ids[k] for k in stack] for stack in s.stacks],
        "marks": list(s.marks),
        "site_marks": list(s.site_mark),
        "collections": [Counter({ids[k]: n for k, n in enumerate(coll) if n}) for coll in s.coll],
        "hands": [Counter({ids[g.num_pottery + j]: n for j, n in enumerate(hand[: g.num_special]) if n}) for hand in s.hand],
        "discard": Counter({ids[k]: n for k, n in enumerate(s.discard) if n}),
        "scores": s.scores(),
        "over": s.is_terminal(),
    }


# --- one game ----------------------------------------------------------------------------------------


def _drain_single_steals(other: ref.KeramikosState) -> None:
    """The interpreter's forced Steal: a reference Steal decision with one action is applied."""
    while other.phase == ref.STEAL:
        actions = other.legal_actions()
        if len(actions) != 1:
            return
        other.apply_action(actions[0])


def play_one(data: DataGame, reference: ref.KeramikosGame, seed: int) -> int:
    """Play one seeded random game in both engines, comparing at every step; the number of decisions."""
    state = data.new_initial_state(seed)
    other = reference.new_initial_state(seed)
    rng = random.Random(seed * 7919 + 1)
    steps = 0
    assert data_position(state) == reference_position(other), f"seed {seed}: setup differs"
    while not state.is_terminal():
        steps += 1
        where = f"seed {seed}, step {steps}"
        assert steps < 5000, where
        if state.current_player() == CHANCE:
            assert other.current_player() == CHANCE, where
            outcomes = state.chance_outcomes()
            mine: dict[tuple[int, int], float] = {}
            for action, p in outcomes:
                total, double = divmod(divmod(action, data.width)[1], 2)
                mine[(total, double)] = mine.get((total, double), 0.0) + p
            theirs: dict[tuple[int, int], float] = {}
            for action, p in other.chance_outcomes():
                d1, d2 = reference.outcome_dice[action - ref.A_DICE]
                key = (d1 + d2, int(d1 == d2))
                theirs[key] = theirs.get(key, 0.0) + p
            assert mine.keys() == theirs.keys() and all(abs(mine[k] - theirs[k]) < 1e-12 for k in mine), where
            action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
            total, double = divmod(divmod(action, data.width)[1], 2)
            state.apply_action(action)
            other.apply_action(next(a for a, _ in other.chance_outcomes() if _pair(reference, a) == (total, double)))
        else:
            assert state.current_player() == other.current_player(), f"{where}: {state.current_player()} vs {other.current_player()}"
            legal = state.legal_actions()
            names = [data_move(state, a) for a in legal]
            theirs_by_name = {reference_move(other, a): a for a in other.legal_actions()}
            assert _offered(names) == set(theirs_by_name), f"{where}: {sorted(_offered(names))} vs {sorted(theirs_by_name)}"
            action = rng.choice(legal)
            name = data_move(state, action)
            state.apply_action(action)
            if name.startswith("burn "):
                other.apply_action(ref.A_BURN_DECLARE)
                burns = {reference_move(other, a): a for a in other.legal_actions()}
                assert set(burns) == {n for n in names if n.startswith("burn ")}, where
                other.apply_action(burns[name])
            else:
                other.apply_action(theirs_by_name[name])
            _drain_single_steals(other)
        assert data_position(state) == reference_position(other), f"{where}: positions differ"
        assert state.conservation_errors() == [], where
    assert other.is_terminal()
    assert state.ranking() == other.ranking(), f"seed {seed}: ranking"
    return steps


def _pair(reference: ref.KeramikosGame, action: int) -> tuple[int, int]:
    d1, d2 = reference.outcome_dice[action - ref.A_DICE]
    return d1 + d2, int(d1 == d2)


def _combinations() -> list[tuple[dict[str, str], int]]:
    out = []
    for values in itertools.product(*CHOICES.values()):
        options = dict(zip(CHOICES, values))
        shipped = all(value == choices[0] for value, choices in zip(values, CHOICES.values()))
        out.append((options, DEFAULT_GAMES if shipped else OPTION_GAMES))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("options", "games"), _combinations(), ids=lambda v: "-".join(v.values()) if isinstance(v, dict) else str(v))
def test_keramikos_data_agrees_with_the_hand_written_engine(players: int, options: dict[str, str], games: int) -> None:
    spec = _spec(SPEC, options)
    data = make_game(spec, players)
    assert isinstance(data, DataGame)
    reference = ref.KeramikosGame(spec, players)
    for seed in range(games):
        play_one(data, reference, seed)
