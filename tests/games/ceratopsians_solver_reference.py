"""Exhaustive references for the Ceratopsians solvers (test-only code: no pruning, no bounds, no tables).

Each reference walks the engine's own State API or every set partition, so it
shares nothing with the searches it checks but the reference engine (tests/reference/ceratopsians.py,
the former rules module, which the lockstep test ties to the shipped rules data).
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Sequence

from cardgen.games.ceratopsians.assembly import DisplayScorer

TESTS = str(Path(__file__).resolve().parents[1])
if TESTS not in sys.path:  # tests/, where the reference engines live (tests/engine sees it as its package's parent)
    sys.path.insert(0, TESTS)

from reference.ceratopsians import CeratopsiansGame as CeratopsiansGame, CeratopsiansState as CeratopsiansState  # noqa: E402

Face = int


def brute_force(scorer: DisplayScorer, faces: Sequence[Face]) -> int:
    """The best score over every set partition of ``faces`` (small collections only)."""
    faces = list(faces)
    if len(faces) > 11:
        raise ValueError("brute force is for small collections")
    best = 0
    blocks: list[list[Face]] = []

    def walk(i: int) -> None:
        nonlocal best
        if i == len(faces):
            if all(len({scorer.part_of[f] for f in b}) == len(b) for b in blocks):
                best = max(best, scorer.arrangement_score(blocks))
            return
        for block in blocks:
            block.append(faces[i])
            walk(i + 1)
            block.pop()
        blocks.append([faces[i]])
        walk(i + 1)
        blocks.pop()

    walk(0)
    return best


def greedy(scorer: DisplayScorer, faces: Sequence[Face]) -> int:
    """A quick non-optimal assembly: each face, rarest part first, joins the display where it gains most."""
    displays: list[dict[int, Face]] = []
    for f in sorted(faces, key=lambda f: scorer.part_of[f]):
        p = scorer.part_of[f]
        best: dict[int, Face] | None = None
        best_gain = -1
        for d in displays:
            if p not in d:
                gain = sum(scorer.weight[f][d[q]] for q in scorer.neighbours[p] if q in d)
                if gain > best_gain:
                    best, best_gain = d, gain
        if best is None:
            displays.append({p: f})
        else:
            best[p] = f
    return scorer.arrangement_score([list(d.values()) for d in displays])


def margin(state: CeratopsiansState) -> int:
    """P1's score minus P2's at the end, each collection valued by the display search.

    (The display search is checked against :func:`brute_force` on its own; the engine's
    ``scores()`` would also search an arrangement for every finished game, which costs more.)
    """
    scorer = state.game.scorer
    return scorer.value(state.collections[0]) - scorer.value(state.collections[1])


def minimax(state: CeratopsiansState) -> int:
    """Plain minimax on P1's margin through the engine (deck order known; no pruning, no table)."""
    if state.is_terminal():
        return margin(state)
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(minimax(child))
    return max(values) if state.current_player() == 0 else min(values)


def with_top(state: CeratopsiansState, card: int, side: int) -> CeratopsiansState:
    """A copy of ``state`` whose next hidden deck card (under the top one) is ``card``, showing ``side``."""
    copy = state.clone()
    seen = copy.order[: copy.top + 1]
    rest = [c for c in copy.order[copy.top + 1 :] if c != card]
    copy.order = tuple(seen) + (card,) + tuple(rest)
    copy.sides[card] = side
    return copy


def expectimax(state: CeratopsiansState) -> Fraction:
    """P1's expected margin when the players see the boneyard and the deck's top card only.

    After each refill a new top card shows: every unseen card, on either side, at equal odds.
    Written on engine states: the hidden card about to show is put in place before the draft.
    """
    if state.is_terminal():
        return Fraction(margin(state))
    values: list[Fraction] = []
    for action in state.legal_actions():
        unseen = state.order[state.top + 1 :]
        if state.top < len(state.order) and unseen:
            outcomes = []
            for card in unseen:
                for side in (0, 1):
                    child = with_top(state, card, side)
                    child.apply_action(action)
                    outcomes.append(expectimax(child))
            values.append(sum(outcomes, Fraction(0)) / len(outcomes))
        else:
            child = state.clone()
            child.apply_action(action)
            values.append(expectimax(child))
    return max(values) if state.current_player() == 0 else min(values)


def random_position(game: CeratopsiansGame, seed: int, drafts: int) -> CeratopsiansState:
    """The deal of ``seed`` after ``drafts`` random drafts (the drafts drawn from ``seed`` too)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed * 7919 + drafts)
    for _ in range(drafts):
        state.apply_action(rng.choice(state.legal_actions()))
    return state
