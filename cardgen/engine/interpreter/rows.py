"""Rows of piles in the interpreter: a move that picks the pile each card goes into, the setup loop and a zone
shuffled back into another (the models are :mod:`cardgen.spec.rules_rows`).

A row of piles (a zone with ``under: DECK``) takes one slot of ``DataState.z`` per card of that deck, in the order
the spec lists them: pile ``P`` of a row whose first slot is ``i`` is ``s.z[i + P]``, and it lies under the design
``first + P`` (:attr:`cardgen.engine.interpreter.compile.Tables.rows`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Sequence

from cardgen.engine.interpreter.compile import (
    ExprFunction,
    Tables,
    compile_expression,
    compile_first_pile,
    compile_pile_expression,
    fixed_per_design,
    fixed_piles,
    names_read,
)
from cardgen.spec.rules_data import AddSpec, ArrangeSpec, Counter, MoveSpec, Option, PileChoice
from cardgen.spec.rules_data import RepeatStep
from cardgen.spec.rules_rows import ShuffleBackStep

if TYPE_CHECKING:
    from cardgen.engine.interpreter.effects import EffectFunction
    from cardgen.engine.interpreter.game import DataGame, DataState

SetupFunction = Callable[["DataState", random.Random], None]

SHORTCUTS = True
"""Whether pile choices and moves out of a row take the ways made when the game is made (a choice worked out per
design or read as one expression, every card out of a row in one pass, a per-pile counter emptied at once); the
plain ways (false) are kept for the test that compares the two (tests/engine/test_rules_data_fast_paths.py)."""


def row_slots(game: "DataGame", under: str) -> int:
    """How many slots a row of piles under the deck ``under`` takes: one per card of the deck."""
    return len(game.deck_designs[under])


def counter_slots(game: "DataGame", counter: Counter) -> int:
    """How many slots a counter takes: one per seat, one per pile of its row (``per_pile``), or one."""
    if counter.per_seat:
        return game.num_players
    if counter.per_pile is not None:
        under = game.rules.zones[counter.per_pile].under
        assert under is not None
        return row_slots(game, under)
    return 1


PileFit = Callable[["DataState", int, int, int], object]
"""A compiled pile condition ``f(state, seat, card, pile)``."""


def pick_pile(s: "DataState", fits: PileFit | None, piles: int, seat: int, card: int, base: int, fewest: bool, nonempty: bool) -> int:
    """The pile a choice picks (-1: none fits): among the piles ``fits`` accepts (and holding a card, ``nonempty``), the one with the
    fewest cards in the zone slots from ``base``, the leftmost on a tie, or the leftmost (``fewest`` false)."""
    best, best_size = -1, 0
    for pile in range(piles):
        size = len(s.z[base + pile])
        if nonempty and not size:
            continue
        if fits is not None and not fits(s, seat, card, pile):
            continue
        if not fewest:
            return pile
        if best < 0 or size < best_size:
            best, best_size = pile, size
    return best


Picker = Callable[["DataState", int, int], int]
"""``f(state, seat, card)``: the pile a pile choice picks (-1: none fits)."""


def pile_picker(
    t: Tables, where: int | str | None, row: str, base: int, designs: int, *, fewest: bool, nonempty: bool, card: bool, aimed: bool
) -> Picker:
    """The pile a choice over ``row`` picks, as :func:`pick_pile` does (the fewest cards in the zone slots from ``base``, the
    leftmost on a tie, or the leftmost; holding a card when ``nonempty``), made when the game is made: a condition that
    reads only the card and the pile is worked out per design (the piles it allows, looked at alone), a leftmost pick
    is one expression (:func:`~cardgen.engine.interpreter.compile.compile_first_pile`), else each pile's condition is read.
    ``card``: whether the choice's ``card`` is a design (the card moved), so the table may be read by it."""
    piles = t.rows[row][1]
    if not SHORTCUTS:
        plain_fits = compile_pile_expression(where, t, row, card=card, target=aimed) if where is not None else None
        return lambda s, seat, c: pick_pile(s, plain_fits, piles, seat, c, base, fewest, nonempty)
    table = fixed_piles(where, t, row, designs, target=aimed) if where is not None else None
    if table is not None:
        allowed = table[0] if table else ()  # without a card the condition cannot read one: the same piles for every call

        def among(c: int) -> tuple[int, ...]:
            return table[c] if card else allowed
        if fewest:

            def fewest_allowed(s: "DataState", seat: int, c: int) -> int:
                best, best_size = -1, 0
                for pile in among(c):
                    size = len(s.z[base + pile])
                    if (size or not nonempty) and (best < 0 or size < best_size):
                        best, best_size = pile, size
                return best
            return fewest_allowed

        def first_allowed(s: "DataState", seat: int, c: int) -> int:
            for pile in among(c):
                if not nonempty or s.z[base + pile]:
                    return pile
            return -1
        return first_allowed
    if not fewest:
        return compile_first_pile(where, t, row, base, nonempty=nonempty, card=card, target=aimed)
    fits = compile_pile_expression(where, t, row, card=card, target=aimed) if where is not None else None
    return lambda s, seat, c: pick_pile(s, fits, piles, seat, c, base, True, nonempty)


def compile_row_move(game: "DataGame", move: MoveSpec, count: ExprFunction | None, who: Callable[["DataState", int], Sequence[int]], aimed: bool) -> "EffectFunction":
    """A move from or into a row of piles, or beneath a zone's cards (``place: bottom``).

    Cards move one at a time, from the top down (only those satisfying ``where``, when it is given). Into a row, each card goes into
    the pile the ``pile`` choice picks for it. From a row, each card leaves the pile the choice picks among those holding a card
    (the leftmost, unless ``pick: fewest``); from a row into a row under the same deck, it goes into the pile of the same place.
    A card no pile takes stays, and the move stops there; ``count: all`` moves every card the piles hold."""
    t = game.tables
    source, source_seat = t.zone_index[move.from_], game.zone_per_seat[move.from_]
    target, target_seat = t.zone_index[move.to], game.zone_per_seat[move.to]
    where = compile_expression(move.where, t, card=True, target=aimed) if move.where is not None else None
    bottom = move.place == "bottom"
    choice = move.pile
    into, out_of = t.rows.get(move.to), t.rows.get(move.from_)
    row = out_of or into
    piles = row[1] if row is not None else 0
    pile_row = move.from_ if out_of is not None else move.to
    fits = compile_pile_expression(choice.where, t, pile_row, card=True, target=aimed) if choice is not None and choice.where is not None and row else None
    fewest = (choice.pick == "fewest") if choice is not None else out_of is None
    same_place = out_of is not None and into is not None
    fit_where = choice.where if choice is not None and row else None
    designs = game.n_designs
    known = fixed_per_design(move.where, t, designs) if move.where is not None else None
    where_known = known is not None and None not in known
    """Whether the card condition is known per design before play (so it cannot change as cards move)."""
    top_blind = fit_where is None or "card" not in names_read(fit_where, t, pile_row)
    """Whether the pile choice out of a row ignores the card on top of each pile (so a picker may choose the pile)."""
    picker: Picker | None = None
    if into is not None and out_of is None:  # each card moved is the choice's card
        picker = pile_picker(t, fit_where, pile_row, target, designs, fewest=fewest, nonempty=False, card=True, aimed=aimed)
    elif out_of is not None and top_blind:
        picker = pile_picker(t, fit_where, pile_row, source, designs, fewest=fewest, nonempty=True, card=False, aimed=aimed)

    def put(dst: list[int], design: int) -> None:
        if bottom:
            dst.insert(0, design)
        else:
            dst.append(design)

    pick = picker

    def into_row(s: "DataState", seat: int, c: int) -> None:
        assert pick is not None
        for whose in who(s, seat):
            src = s.z[source + (whose if source_seat else 0)]
            n = len(src) if count is None else count(s, seat, c) or 0
            i = len(src) - 1
            while i >= 0 and n > 0:
                design = src[i]
                if where is None or where(s, seat, design):
                    pile = pick(s, seat, design)
                    if pile < 0:
                        return
                    del src[i]
                    put(s.z[target + pile], design)
                    n -= 1
                i -= 1

    def all_out_of_row(s: "DataState", seat: int, c: int) -> None:
        """Every card (satisfying a card condition known per design) out of every pile, the leftmost pile first, each
        from the top down: what taking them one by one from the leftmost pile holding one does when nothing else
        is chosen."""
        for pile in range(piles):
            src = s.z[source + pile]
            if not src:
                continue
            dst = s.z[target + pile] if same_place else s.z[target + (who(s, seat)[0] if target_seat else 0)]
            if known is None:
                if bottom:  # each card beneath the one before: the pile's order kept
                    dst[:0] = src
                else:
                    dst.extend(reversed(src))
                src.clear()
                continue
            for i in range(len(src) - 1, -1, -1):
                design = src[i]
                if known[design]:
                    del src[i]
                    put(dst, design)

    def picked_out_of_row(s: "DataState", seat: int, c: int) -> None:
        """The top card of the pile the choice picks, one at a time (no card condition)."""
        assert pick is not None
        n = -1 if count is None else count(s, seat, c) or 0
        moved = 0
        while n < 0 or moved < n:
            pile = pick(s, seat, c)
            if pile < 0:
                return
            design = s.z[source + pile].pop()
            put(s.z[target + pile] if same_place else s.z[target + (who(s, seat)[0] if target_seat else 0)], design)
            moved += 1

    def out_of_row(s: "DataState", seat: int, c: int) -> None:
        n = -1 if count is None else count(s, seat, c) or 0
        moved = 0
        while n < 0 or moved < n:
            pile = -1
            for candidate in range(piles):
                src = s.z[source + candidate]
                if not src or (fits is not None and not fits(s, seat, src[-1], candidate)):
                    continue
                if where is None or any(where(s, seat, d) for d in src):
                    if pile < 0 or (fewest and len(src) < len(s.z[source + pile])):
                        pile = candidate
                    if not fewest:
                        break
            if pile < 0:
                return
            src = s.z[source + pile]
            i = len(src) - 1
            while where is not None and not where(s, seat, src[i]):
                i -= 1
            design = src.pop(i)
            dst = s.z[target + pile] if same_place else s.z[target + (who(s, seat)[0] if target_seat else 0)]
            put(dst, design)
            moved += 1

    def plain(s: "DataState", seat: int, c: int) -> None:
        for whose in who(s, seat):
            src = s.z[source + (whose if source_seat else 0)]
            dst = s.z[target + (whose if target_seat else 0)]
            n = len(src) if count is None else count(s, seat, c) or 0
            i = len(src) - 1
            while i >= 0 and n > 0:
                design = src[i]
                if where is None or where(s, seat, design):
                    del src[i]
                    put(dst, design)
                    n -= 1
                i -= 1

    if out_of is not None:
        if not SHORTCUTS:
            return out_of_row
        if count is None and fits is None and not fewest and (where is None or where_known) and not (same_place and source == target):
            return all_out_of_row
        if where is None and top_blind:
            return picked_out_of_row
        return out_of_row
    return into_row if into is not None else plain


def compile_pile_add(game: "DataGame", add: AddSpec, card: bool, aimed: bool) -> "EffectFunction":
    """A change of a counter kept per pile: the picked pile's (the leftmost satisfying the choice's ``where``, or the fewest-cards
    one under ``pick: fewest``), or every pile's when no pile is given; the amount is read for each pile, with ``pile`` bound
    (``amount: -site_mark`` empties them all)."""
    t = game.tables
    counter = game.rules.counters[add.counter]
    assert counter.per_pile is not None
    amount = compile_pile_expression(add.amount, t, counter.per_pile, card=card, target=aimed)
    index, base = t.counter_index[add.counter], t.zone_index[counter.per_pile]
    piles = t.rows[counter.per_pile][1]
    choice = add.pile
    pick = pile_picker(t, choice.where, counter.per_pile, base, game.n_designs, fewest=choice.pick == "fewest", nonempty=False, card=card, aimed=aimed) if choice is not None else None
    emptied = SHORTCUTS and _minus_itself(add)

    def run(s: "DataState", seat: int, c: int) -> None:
        if pick is None:
            if emptied:  # minus the counter itself: every pile's back to 0
                s.c[index : index + piles] = [0] * piles
                return
            for pile in range(piles):
                s.c[index + pile] += amount(s, seat, c, pile) or 0
            return
        pile = pick(s, seat, c)
        if pile >= 0:
            s.c[index + pile] += amount(s, seat, c, pile) or 0
    return run


def _minus_itself(add: AddSpec) -> bool:
    """Whether an add's amount is minus the counter it changes (``amount: -site_mark``), which empties it."""
    amount = add.amount
    return isinstance(amount, str) and amount.replace(" ", "") == f"-{add.counter}"


def arranged_pile(game: "DataGame", arrange: ArrangeSpec) -> Callable[["DataState", int, int], int] | None:
    """For an arrangement of a row of piles: the slot of the pile it arranges (-1: none fits), else None."""
    t = game.tables
    row = t.rows.get(arrange.zone)
    if row is None:
        return None
    base, piles = t.zone_index[arrange.zone], row[1]
    choice: PileChoice | None = arrange.pile
    pick = pile_picker(t, choice.where if choice else None, arrange.zone, base, game.n_designs, fewest=choice is not None and choice.pick == "fewest", nonempty=False, card=False, aimed=True)

    def slot(s: "DataState", seat: int, c: int) -> int:
        pile = pick(s, seat, c)
        return base + pile if pile >= 0 else -1
    return slot


class RowChoice:
    """An option's choices over a row of piles, carried by the compiled option the way a named mechanic's action is (its offer and
    its act), so the turn flow needs nothing new: a pile of the row (``pile``), or a card from any pile of it (``card.from`` a row)."""

    def __init__(self, width: int, describe: Callable[["DataState", int], str]) -> None:
        self._width, self._describe = width, describe

    def width(self, name: str) -> int:
        """The span of the choice's parameter."""
        return self._width

    def describe(self, name: str, state: "DataState", parameter: int) -> str:
        """The choice in words, for replays."""
        return self._describe(state, parameter)


def pile_option(game: "DataGame", option: Option) -> tuple[RowChoice, str, Callable[["DataState", int], list[int]], Callable[["DataState", int, int], None]]:
    """An option choosing a pile of a row: one choice per pile satisfying its ``where``; the chosen pile's card id goes into its variable."""
    assert option.pile is not None
    t = game.tables
    first, piles = t.rows[option.pile.row]
    fits = compile_pile_expression(option.pile.where, t, option.pile.row, target=option.target is not None) if option.pile.where is not None else None
    var = t.variable_index[option.pile.var]
    ids = game.card_ids

    def offered(s: "DataState", seat: int) -> list[int]:
        return [pile for pile in range(piles) if fits is None or fits(s, seat, 0, pile)]

    def act(s: "DataState", seat: int, pile: int) -> None:
        s.v[var] = ids[first + pile]

    return RowChoice(piles, lambda s, pile: game.card_names[first + pile]), "pile", offered, act


def row_card_option(game: "DataGame", option: Option) -> tuple[RowChoice, str, Callable[["DataState", int], list[int]], Callable[["DataState", int, int], None]]:
    """An option choosing a card from a row of piles: one choice per design some pile holds (satisfying the card's ``where``); the
    copy taken is the one in the leftmost pile that holds the design, the nearest the top, and it goes to ``to``; its own effect
    (when ``effects``) happens right after it moves."""
    choice = option.card
    assert choice is not None
    t = game.tables
    base, piles = t.zone_index[choice.from_], t.rows[choice.from_][1]
    target, target_seat = t.zone_index[choice.to], game.zone_per_seat[choice.to]
    where = compile_expression(choice.where, t, card=True, target=option.target is not None) if choice.where is not None else None
    with_effects = choice.effects
    known = fixed_per_design(choice.where, t, game.n_designs) if choice.where is not None and SHORTCUTS else None
    allowed = frozenset(d for d, holds in enumerate(known) if holds) if known is not None and None not in known else None
    """The designs the card condition allows, when it is known per design before play."""

    def offered(s: "DataState", seat: int) -> list[int]:
        present = set().union(*s.z[base : base + piles])
        if allowed is not None:
            return sorted(allowed.intersection(present))
        return sorted(d for d in present if where is None or where(s, seat, d))

    def act(s: "DataState", seat: int, design: int) -> None:
        for pile in range(piles):
            src = s.z[base + pile]
            if design in src:
                i = len(src) - 1 - src[::-1].index(design)
                del src[i]
                s.z[target + (seat if target_seat else 0)].append(design)
                break
        effects = game.design_effect[design] if with_effects else None
        if effects is not None:
            s.effect_uses[game.design_effect_index[design]] += 1
            for effect in effects:
                effect(s, seat, design)

    return RowChoice(game.n_designs, lambda s, design: game.card_names[design]), "card", offered, act


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
