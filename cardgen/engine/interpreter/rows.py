"""Rows of piles in the interpreter: a move that picks the pile each card goes into, the setup loop and a zone
shuffled back into another (the models are :mod:`cardgen.spec.rules_rows`).

A row of piles (a zone with ``under: DECK``) takes one slot of ``DataState.z`` per card of that deck, in the order
the spec lists them: pile ``P`` of a row whose first slot is ``i`` is ``s.z[i + P]``, and it lies under the design
``first + P`` (:attr:`cardgen.engine.interpreter.compile.Tables.rows`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Sequence

from cardgen.engine.interpreter.compile import ExprFunction, compile_expression, compile_pile_expression
from cardgen.spec.rules_data import MoveSpec
from cardgen.spec.rules_data import RepeatStep
from cardgen.spec.rules_rows import ShuffleBackStep

if TYPE_CHECKING:
    from cardgen.engine.interpreter.effects import EffectFunction
    from cardgen.engine.interpreter.game import DataGame, DataState

SetupFunction = Callable[["DataState", random.Random], None]


def row_slots(game: "DataGame", under: str) -> int:
    """How many slots a row of piles under the deck ``under`` takes: one per card of the deck."""
    return len(game.deck_designs[under])


def compile_row_move(game: "DataGame", move: MoveSpec, count: ExprFunction | None, who: Callable[["DataState", int], Sequence[int]], aimed: bool) -> "EffectFunction":
    """A move into a row of piles (each card into the pile its ``pile`` choice picks) or beneath a zone's cards (``place: bottom``).

    Cards leave ``from`` from the top down (only those satisfying ``where``, when it is given), one at a time; a card for which
    no pile qualifies stays, and the move stops there."""
    t = game.tables
    source, source_seat = t.zone_index[move.from_], game.zone_per_seat[move.from_]
    target, target_seat = t.zone_index[move.to], game.zone_per_seat[move.to]
    where = compile_expression(move.where, t, card=True, target=aimed) if move.where is not None else None
    bottom = move.place == "bottom"
    choice = move.pile
    row = t.rows.get(move.to)
    piles = row[1] if row is not None else 0
    fits = compile_pile_expression(choice.where, t, move.to, card=True, target=aimed) if choice is not None and choice.where is not None and row else None
    fewest = choice is None or choice.pick == "fewest"

    def destination(s: "DataState", seat: int, design: int) -> list[int] | None:
        if row is None:
            return s.z[target + (seat if target_seat else 0)]
        best, best_size = -1, 0
        for pile in range(piles):
            if fits is not None and not fits(s, seat, design, pile):
                continue
            size = len(s.z[target + pile])
            if best < 0 or (fewest and size < best_size):
                best, best_size = pile, size
                if not fewest:
                    break
        return s.z[target + best] if best >= 0 else None

    def run(s: "DataState", seat: int, c: int) -> None:
        for whose in who(s, seat):
            src = s.z[source + (whose if source_seat else 0)]
            n = len(src) if count is None else count(s, seat, c) or 0
            i = len(src) - 1
            while i >= 0 and n > 0:
                design = src[i]
                if where is None or where(s, seat, design):
                    dst = destination(s, whose if target_seat else seat, design)
                    if dst is None:
                        return
                    del src[i]
                    if bottom:
                        dst.insert(0, design)
                    else:
                        dst.append(design)
                    n -= 1
                i -= 1

    return run


def compile_row_setup(game: "DataGame", step: RepeatStep | ShuffleBackStep) -> SetupFunction:
    """A setup loop (its effects again and again until its condition holds) or a zone shuffled back into another."""
    from cardgen.engine.interpreter.effects import compile_effect

    t = game.tables
    if isinstance(step, ShuffleBackStep):
        source, target = t.zone_index[step.shuffle_back.from_], t.zone_index[step.shuffle_back.to]

        def shuffle_back(s: "DataState", rng: random.Random) -> None:
            pile = s.z[target]
            pile.extend(s.z[source])
            s.z[source].clear()
            rng.shuffle(pile)
        return shuffle_back
    until = compile_expression(step.repeat.until, t)
    effects = [compile_effect(game, effect, card=False, target=False) for effect in step.repeat.do]
    limit = step.repeat.limit

    def repeat(s: "DataState", rng: random.Random) -> None:
        for _ in range(limit):
            if until(s, s.seat, 0):
                return
            before = ([list(zone) for zone in s.z], list(s.c), list(s.v))
            for effect in effects:
                effect(s, s.seat, 0)
            if before == (s.z, s.c, s.v):  # a round that changed nothing would be played for ever
                return
    return repeat
