"""Effects of rules data compiled once per Game: each a small function ``f(state, seat, card)`` over flat lists.

:func:`compile_effect` turns one effect of the models (:mod:`cardgen.spec.rules_data`)
into a closure over the Game's zone and counter indices and compiled expressions, so
carrying it out in a playout costs a few list operations. A roll or a steal registers
a :class:`~cardgen.engine.interpreter.chance.ChanceStep` with the Game and, when it
happens, marks the state as waiting for chance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from cardgen.engine.interpreter.chance import ChanceStep, dice_totals, dice_totals_doubles
from cardgen.engine.interpreter.compile import ExprFunction, Tables, compile_expression, names_read
from cardgen.engine.interpreter.rows import arranged_pile, compile_pile_add, compile_row_move
from cardgen.spec.rules_data import (
    AddEffect,
    ArrangeEffect,
    ChooseEffect,
    Effect,
    MoveEffect,
    MoveSpec,
    RollEffect,
    SetEffect,
    SkipEffect,
    StealEffect,
    SwapEffect,
    TransferEffect,
    Who,
)
from cardgen.spec.rules_mechanics import MechanicEffect

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataGame, DataState

EffectFunction = Callable[["DataState", int, int], None]


def who_seats(P: int, who: Who) -> Callable[["DataState", int], Sequence[int]]:
    """Whose zones or counters an effect touches, as a function of the state and the seat deciding (``s.seat`` is the
    seat whose turn it is)."""
    if who == "me":
        return lambda s, seat: (seat,)
    if who == "target":
        return lambda s, seat: (s.tg,)
    if who == "active":
        return lambda s, seat: (s.seat,)
    if who == "next":
        return lambda s, seat: ((seat + s.direction) % P,)
    if who == "previous":
        return lambda s, seat: ((seat - s.direction) % P,)
    if who == "each":
        return lambda s, seat: [(seat + k * s.direction) % P for k in range(P)]
    return lambda s, seat: [(seat + k * s.direction) % P for k in range(1, P)]


_CONSTANT_NAMES = frozenset({"numbers", "setup", "options", "players", "min", "max", "true", "false", "True", "False"})
"""The names an expression may read and still have one value for the whole game."""


def steady_amount(source: int | str, tables: Tables) -> int | None:
    """The amount ``source`` always gives, as an effect uses it (no value counts as 0), when it reads nothing of the
    position, the seat or the card (numbers, setup entries, rule options); None when it must be read in play."""
    if not names_read(source, tables) <= _CONSTANT_NAMES:
        return None
    value = compile_expression(source, tables)(None, 0, 0)
    if value is None:
        return 0  # no value moves or adds nothing
    return value if isinstance(value, int) else None


def compile_move(game: "DataGame", move: MoveSpec, card: bool, aimed: bool = False) -> EffectFunction:
    """Cards from the top of one zone to another (``aimed``: the option chose a seat, so ``target`` is bound)."""
    t = game.tables
    source = t.zone_index[move.from_]
    source_seat = game.zone_per_seat[move.from_]
    count = None if move.count == "all" else compile_expression(move.count, t, card=card, target=aimed)
    seats = who_seats(game.num_players, move.who)
    if move.pile is not None or move.place != "top" or move.to in t.rows or move.from_ in t.rows:
        return compile_row_move(game, move, count, seats, aimed)
    receiving = _receiving(game, move)
    if move.where is not None:
        return _move_where(game, move, count, seats, receiving, compile_expression(move.where, t, card=True))
    if move.to_who is not None:
        return _move_to_another(game, move, count, seats, receiving)
    steady = None if move.count == "all" else steady_amount(move.count, t)
    if move.who == "me":  # the deciding seat's own zones (draw a card): no seats to go through
        target, target_seat = t.zone_index[move.to], game.zone_per_seat[move.to]

        def run_own(s: DataState, seat: int, c: int) -> None:
            src = s.z[source + seat] if source_seat else s.z[source]
            dst = s.z[target + seat] if target_seat else s.z[target]
            n = len(src) if count is None else steady if steady is not None else count(s, seat, c) or 0
            for _ in range(min(n, len(src))):
                dst.append(src.pop())

        return run_own

    def run(s: DataState, seat: int, c: int) -> None:
        for who in seats(s, seat):
            src = s.z[source + (who if source_seat else 0)]
            dst = s.z[receiving(s, seat, who)]
            n = len(src) if count is None else count(s, seat, c) or 0  # no value (a missing field) moves none
            for _ in range(min(n, len(src))):
                dst.append(src.pop())

    return run


Receiving = Callable[["DataState", int, int], int]
"""``f(state, seat deciding, seat giving)``: the slot of the ``to`` zone a giving seat's cards go to."""


def _receiving(game: "DataGame", move: MoveSpec) -> Receiving:
    """Where each giving seat's cards go: a shared zone; the giving seat's own zone (no ``to_who``); when several
    seats give (``who: each|others``) and ``to_who`` is ``next`` or ``previous``, the seat after or before each giving
    seat (every player passes to the next, as "each player's card to the next player's hand" reads); otherwise the
    one seat ``to_who`` names from the seat deciding, as everywhere in the rulebook."""
    target = game.tables.zone_index[move.to]
    if not game.zone_per_seat[move.to]:
        return lambda s, seat, who: target
    P = game.num_players
    if move.to_who is None:
        return lambda s, seat, who: target + who
    several = move.who in ("each", "others")
    if move.to_who == "next" and several:
        return lambda s, seat, who: target + (who + s.direction) % P
    if move.to_who == "previous" and several:
        return lambda s, seat, who: target + (who - s.direction) % P
    fixed = who_seats(P, move.to_who)
    return lambda s, seat, who: target + fixed(s, seat)[0]


def _move_to_another(
    game: "DataGame", move: MoveSpec, count: ExprFunction | None, seats: Callable[["DataState", int], Sequence[int]], receiving: Receiving
) -> EffectFunction:
    """A move whose cards go to another seat's zone (``to_who``): every giving seat's cards are taken first, then
    handed over, so a card passed on is never passed again in the same move."""
    source = game.tables.zone_index[move.from_]
    source_seat = game.zone_per_seat[move.from_]

    def give(s: DataState, seat: int, c: int) -> None:
        handed: list[tuple[int, list[int]]] = []
        for who in seats(s, seat):
            src = s.z[source + (who if source_seat else 0)]
            n = len(src) if count is None else count(s, seat, c) or 0
            handed.append((receiving(s, seat, who), [src.pop() for _ in range(min(n, len(src)))]))
        for slot, cards in handed:
            s.z[slot].extend(cards)

    return give


def compile_swap(game: "DataGame", effect: SwapEffect) -> EffectFunction:
    """The seat deciding's zone and another seat's zone change places, card for card."""
    t = game.tables
    mine, theirs = t.zone_index[effect.swap.zone], t.zone_index[effect.swap.other or effect.swap.zone]
    other = who_seats(game.num_players, effect.swap.with_)

    def swap(s: DataState, seat: int, c: int) -> None:
        a, b = mine + seat, theirs + other(s, seat)[0]
        if a != b:
            s.z[a], s.z[b] = s.z[b], s.z[a]

    return swap


def _move_where(
    game: "DataGame", move: MoveSpec, count: ExprFunction | None, seats: Callable[["DataState", int], Sequence[int]], receiving: Receiving,
    where: ExprFunction,
) -> EffectFunction:
    """A move of only the cards satisfying ``where``: the first ``count`` of them from the top down; the others stay in
    place. With ``to_who``, as in :func:`_move_to_another`, every giving seat's cards are taken before any is handed over."""
    source = game.tables.zone_index[move.from_]
    source_seat = game.zone_per_seat[move.from_]
    defer = move.to_who is not None

    def run(s: DataState, seat: int, c: int) -> None:
        handed: list[tuple[int, list[int]]] = []
        for who in seats(s, seat):
            src = s.z[source + (who if source_seat else 0)]
            n = len(src) if count is None else count(s, seat, c) or 0
            taken: list[int] = []
            i = len(src) - 1
            while i >= 0 and n > 0:
                design = src[i]
                if where(s, seat, design):
                    del src[i]
                    taken.append(design)
                    n -= 1
                i -= 1
            if defer:
                handed.append((receiving(s, seat, who), taken))
            else:
                s.z[receiving(s, seat, who)].extend(taken)  # each seat's own zone: handed over at once, as always
        for slot, cards in handed:
            s.z[slot].extend(cards)

    return run


def compile_effect(game: "DataGame", effect: Effect, *, card: bool, target: bool) -> EffectFunction:
    """One effect as a function ``f(state, seat, card)`` (``card``/``target``: whether those names are bound)."""
    t = game.tables
    if isinstance(effect, MechanicEffect):
        return game.mechanic(effect.mechanic.name).effect(effect.mechanic.effect)
    if isinstance(effect, (RollEffect, StealEffect)):
        return compile_chance(game, effect)
    if effect == "reverse":
        def reverse(s: DataState, seat: int, c: int) -> None:
            s.direction = -s.direction
        return reverse
    if effect == "extra_turn":
        def extra(s: DataState, seat: int, c: int) -> None:
            s.extra = True
        return extra
    if isinstance(effect, MoveEffect):
        return compile_move(game, effect.move, card, target)
    if isinstance(effect, ArrangeEffect):
        return compile_arrange(game, effect, card, target)
    if isinstance(effect, SwapEffect):
        return compile_swap(game, effect)
    if isinstance(effect, AddEffect):
        index, per_seat = t.counter_index[effect.add.counter], t.names.counters[effect.add.counter]
        if effect.add.counter in t.names.pile_counters:
            return compile_pile_add(game, effect.add, card, target)
        amount = compile_expression(effect.add.amount, t, card=card, target=target)
        seats = who_seats(game.num_players, effect.add.who)
        steady = steady_amount(effect.add.amount, t)
        if effect.add.who == "me" and steady is not None:  # a fixed amount to the deciding seat's own counter

            def add_own(s: DataState, seat: int, c: int) -> None:
                s.c[index + seat if per_seat else index] += steady
            return add_own

        def add(s: DataState, seat: int, c: int) -> None:
            value = amount(s, seat, c) or 0  # no value adds nothing
            for who in seats(s, seat):
                s.c[index + (who if per_seat else 0)] += value
        return add
    if isinstance(effect, TransferEffect):
        source, receiver = t.counter_index[effect.transfer.from_], t.counter_index[effect.transfer.to]
        source_seat, receiver_seat = t.names.counters[effect.transfer.from_], t.names.counters[effect.transfer.to]
        seats = who_seats(game.num_players, effect.transfer.who)

        def transfer(s: DataState, seat: int, c: int) -> None:
            for who in seats(s, seat):
                i, j = source + (who if source_seat else 0), receiver + (who if receiver_seat else 0)
                s.c[j] += s.c[i]
                s.c[i] = 0
        return transfer
    if isinstance(effect, SetEffect):
        var = t.variable_index[effect.set.var]
        value = compile_expression(effect.set.value, t, card=card, target=target)

        def set_variable(s: DataState, seat: int, c: int) -> None:
            s.v[var] = value(s, seat, c)
        return set_variable
    if isinstance(effect, ChooseEffect):
        var = t.variable_index[effect.choose]

        def choose(s: DataState, seat: int, c: int) -> None:
            s.pending = var
        return choose
    assert isinstance(effect, SkipEffect)
    skip = effect.skip

    def skip_seats(s: DataState, seat: int, c: int) -> None:
        s.skips += skip
    return skip_seats


def compile_chance(game: "DataGame", effect: RollEffect | StealEffect) -> EffectFunction:
    """A roll or a steal: the state waits for chance (its outcome is the next action)."""
    t = game.tables
    k = len(game.chances)
    if isinstance(effect, RollEffect):
        die = game.dice[effect.roll.dice]
        doubles = effect.roll.doubles
        totals = dice_totals_doubles(die.count, die.sides) if doubles is not None else dice_totals(die.count, die.sides)
        doubles_var = t.variable_index[doubles] if doubles is not None else -1
        game.chances.append(ChanceStep(k, "roll", die.id, t.variable_index[effect.roll.var], tuple(totals), doubles_var))

        def roll(s: DataState, seat: int, c: int) -> None:
            s.chance = k
        return roll
    steal = effect.steal
    game.chances.append(ChanceStep(k, "steal", steal.from_))
    source, target, target_seat = t.zone_index[steal.from_], t.zone_index[steal.to], game.zone_per_seat[steal.to]
    seats = who_seats(game.num_players, steal.who)

    def take(s: DataState, seat: int, c: int) -> None:
        slot = source + seats(s, seat)[0]
        if s.z[slot]:
            s.chance, s.chance_from, s.chance_to = k, slot, target + (seat if target_seat else 0)
    return take


def compile_arrange(game: "DataGame", effect: ArrangeEffect, card: bool, aimed: bool) -> EffectFunction:
    """The seat deciding arranges the top ``count`` cards of an ordered zone: the state waits for its choices, card by card
    from the top down, until the cards left below have one order only."""
    t = game.tables
    index, per_seat = t.zone_index[effect.arrange.zone], game.zone_per_seat[effect.arrange.zone]
    count = None if effect.arrange.count == "all" else compile_expression(effect.arrange.count, t, card=card, target=aimed)

    pile = arranged_pile(game, effect.arrange)

    def arrange(s: DataState, seat: int, c: int) -> None:
        slot = index + (seat if per_seat else 0) if pile is None else pile(s, seat, c)
        if slot < 0:
            return
        zone = s.z[slot]
        n = len(zone) if count is None else min(len(zone), max(0, count(s, seat, c) or 0))
        low = len(zone) - n
        if len(set(zone[low:])) > 1:
            s.arranging, s.arrange_low, s.arrange_next = slot, low, len(zone) - 1

    return arrange
