"""What an option offers, as one function per option made when the game is made.

Listing the legal actions is most of a playout's time, and most options have one of two shapes: nothing to
choose (pass, draw), or a card of the deciding seat's own zone, maybe aimed at a seat (play a card, attack a
rival with one). :func:`offer_function` gives each such option a function that lists its actions with what it
needs held as locals, not looked up on the option at every call; any other shape (a card of the aimed seat's
zone, a trick, a mechanic's action) is listed by :meth:`DataState._offered
<cardgen.engine.interpreter.state.DataState._offered>`, which lists every shape and is the reference these
functions agree with (tests/engine/test_rules_data_offers.py compares them over the positions of every data game).

A new way of choosing added to :class:`~cardgen.engine.interpreter.options.CompiledOption` belongs in
``DataState._offered`` and must send the options using it there (see :func:`_own_card_shape`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from cardgen.engine.interpreter.compile import compiled
from cardgen.engine.interpreter.options import CompiledOption

if TYPE_CHECKING:
    from cardgen.engine.interpreter.state import DataState

OfferFunction = Callable[["DataState", int, dict[int, list[int]]], list[int]]
"""``f(state, seat deciding, seen)``: the actions an option offers now, lowest first (``seen``: the distinct designs
of the zones already looked at while listing this step, by zone slot)."""


def _own_card_shape(option: CompiledOption) -> bool:
    """Whether the option's only choices are a card of the deciding seat's own zone and, maybe, the seat aimed at."""
    return option.chooses_card and not option.from_target and not option.trick and option.mechanic is None


def offer_function(option: CompiledOption, width: int, card_width: int) -> OfferFunction:
    """The function listing what ``option`` offers (``width``: the Game's action width, ``card_width``: the span of
    designs in a parameter, which an aimed seat multiplies)."""
    base = option.index * width
    when = option.when
    if option.mechanic is None and not option.chooses_card and option.target is None:  # nothing to choose

        def nothing_to_choose(s: DataState, seat: int, seen: dict[int, list[int]]) -> list[int]:
            return [base] if when is None or when(s, seat, 0) else []

        return nothing_to_choose
    if not _own_card_shape(option):

        def listed_by_the_state(s: DataState, seat: int, seen: dict[int, list[int]]) -> list[int]:
            return s._offered(option, seen)

        return listed_by_the_state
    card_from, per_seat, where, fixed, all_fixed, aimed = option.card_from, option.card_from_seat, option.where, option.fixed, option.all_fixed, option.aimed_seats

    def own_card(s: DataState, seat: int, seen: dict[int, list[int]]) -> list[int]:
        if when is not None and not when(s, seat, 0):
            return []
        slot = card_from + seat if per_seat else card_from
        zone = s.z[slot]
        if not zone:  # no card, no need to look at seats
            return []
        distinct = seen.get(slot) or seen.setdefault(slot, sorted(set(zone)))
        if aimed is None:  # the actions straight away
            if where is None:
                return [base + d for d in distinct]
            if all_fixed:
                return [base + d for d in distinct if fixed[d]]
            return [base + d for d in distinct if (known := fixed[d]) or (known is None and where(s, seat, d))]
        if where is None:
            cards = distinct
        elif all_fixed:
            cards = [d for d in distinct if fixed[d]]
        else:
            cards = [d for d in distinct if (known := fixed[d]) or (known is None and where(s, seat, d))]
        if not cards:
            return []
        return [base + target * card_width + d for target in aimed(s, seat) for d in cards]

    return own_card


def step_offer_functions(options: list[CompiledOption], width: int, card_width: int, designs: int) -> tuple[list[OfferFunction], bool]:
    """The functions listing the actions of a step's ``options`` (its live ones offered first, or its ``otherwise``
    ones), and whether what they list together is in order (else the step's list is sorted).

    Options of the own-card shape without a condition of their own that choose from the same zone (play a
    construction, call a character, attack with an event: all from the hand) are listed together by
    :func:`_zone_offer`, in one pass over the zone's designs, as the hand-written engines keep one class per kind
    of card; each other option by its own function."""
    groups = _zone_groups(options)
    functions: list[OfferFunction] = []
    in_order = not any(option.mechanic is not None or option.trick for option in options)
    for option in options:
        group = groups.get((option.card_from, option.card_from_seat), [])
        if option not in group or len(group) == 1:
            functions.append(offer_function(option, width, card_width))
        elif option is group[0]:
            functions.append(_zone_offer(group, width, card_width, designs))
            in_order = False  # the group lists design by design, not option by option
    return functions, in_order


def _zone_groups(options: list[CompiledOption]) -> dict[tuple[int, bool], list[CompiledOption]]:
    """The own-card options without a condition of their own, by the zone they choose from (listed together when
    several choose from one zone)."""
    groups: dict[tuple[int, bool], list[CompiledOption]] = {}
    for option in options:
        if _own_card_shape(option) and option.when is None:
            groups.setdefault((option.card_from, option.card_from_seat), []).append(option)
    return groups


StepOffer = Callable[["DataState", int], list[int]]
"""``f(state, seat deciding)``: every action a step offers now (its ``otherwise`` options' when the others offer
nothing), lowest first."""
StepAny = Callable[["DataState", int], bool]
"""``f(state, seat)``: whether the step offers the seat anything now (a reaction's window asks each seat)."""


def step_offer(
    options: list[CompiledOption], fallbacks: list[CompiledOption], width: int, card_width: int, designs: int, namespace: dict[str, Any]
) -> tuple[StepOffer, StepAny]:
    """A step's listing written as one function, made when the game is made: an option with nothing to choose is
    its condition's code and its action, an own-card option not aimed at a seat its condition's code and a pass over
    the zone's distinct designs with its card condition's code inline (a condition known per design is a set of
    designs met with the zone), an option choosing a pile of a row each pile's condition's code, each read where it
    stands, with no call; any other option (a card of the aimed seat's zone, a trick, a mechanic's action, a card
    across a row, an aim, several own-card options listed together) calls its function of
    :func:`step_offer_functions`. It lists what those functions list, lowest first (sorted once where a called
    function may list out of order). Options in a row whose conditions begin with the same terms read them once.
    With it, the same code written to stop at the first action: whether the step offers anything."""
    names = dict(namespace)  # the tables the conditions' code reads, and the functions called
    in_order = True
    """Whether the listing comes out in order: inline options list in order of option, then of card or pile."""

    def write(lines: list[str], part: list[CompiledOption], indent: str, listing: bool) -> None:
        """The code of ``part``'s options: adding their actions to ``out`` (``listing``), or returning True at the first."""
        groups = _zone_groups(part)

        def offer(inner: str, actions: str, many: bool = True) -> None:
            if listing:
                lines.append(f"{inner}out += {actions}" if many else f"{inner}out.append({actions})")
            elif many:
                lines.append(f"{inner}if {actions}:")
                lines.append(f"{inner}    return True")
            else:
                lines.append(f"{inner}return True")

        def inline(option: CompiledOption) -> bool:
            """Whether the option's actions are written inline (else its function is called, which reads its ``when``)."""
            group = groups.get((option.card_from, option.card_from_seat), [])
            if option in group and len(group) > 1:
                return False
            return (
                (option.mechanic is None and not option.chooses_card and option.target is None)
                or (_own_card_shape(option) and option.aimed_seats is None and (option.where is None or option.where_code is not None))
                or (option.pile_codes is not None and option.target is None)
            )

        def nest(run: list[tuple[CompiledOption, list[str]]], at: str) -> None:
            """Options in a row with the terms of their conditions still to read: those that begin with the same term
            read it once and go on inside it, as the hand-written engines test a shared part once."""
            k = 0
            while k < len(run):
                option, terms = run[k]
                if not terms:
                    write_option(lines, option, at, listing, offer, groups)
                    k += 1
                    continue
                end = k + 1
                while end < len(run) and run[end][1][:1] == terms[:1]:
                    end += 1
                lines.append(f"{at}if {terms[0]}:")
                nest([(o, rest[1:]) for o, rest in run[k:end]], at + "    ")
                k = end

        nest([(option, list(option.when_terms) if option.when is not None and inline(option) else []) for option in part], indent)

    def write_option(
        lines: list[str], option: CompiledOption, inner: str, listing: bool, offer: Callable[..., None], groups: dict[tuple[int, bool], list[CompiledOption]]
    ) -> None:
        """The code of one option's actions, its condition already read (when written inline)."""
        nonlocal in_order
        group = groups.get((option.card_from, option.card_from_seat), [])
        base = option.index * width
        if option in group and len(group) > 1:
            if option is group[0]:
                names[f"_o{option.index}"] = _zone_offer(group, width, card_width, designs)
                offer(inner, f"_o{option.index}(s, S, seen)")
                in_order = False  # design by design, not option by option
            return
        if option.mechanic is None and not option.chooses_card and option.target is None:  # nothing to choose
            offer(inner, str(base), many=False)
            return
        if _own_card_shape(option) and option.aimed_seats is None and (option.where is None or option.where_code is not None):
            slot = f"{option.card_from} + S" if option.card_from_seat else str(option.card_from)
            lines.append(f"{inner}_z = s.z[{slot}]")
            lines.append(f"{inner}if _z:")
            names[f"_fx{option.index}"] = option.fixed
            names[f"_fs{option.index}"] = frozenset(d for d, known in enumerate(option.fixed) if known)
            mixed = f"(_k := _fx{option.index}[c]) or (_k is None and {option.where_code})"
            if not listing:
                offer(f"{inner}    ", "True" if option.where is None else f"not _fs{option.index}.isdisjoint(_z)" if option.all_fixed else f"any({mixed} for c in _z)")
            elif option.where is None:
                lines.append(f"{inner}    out += [{base} + c for c in (seen.get({slot}) or seen.setdefault({slot}, sorted(set(_z))))]")
            elif option.all_fixed:
                lines.append(f"{inner}    out += [{base} + c for c in sorted(_fs{option.index}.intersection(_z))]")
            else:
                lines.append(f"{inner}    out += [{base} + c for c in (seen.get({slot}) or seen.setdefault({slot}, sorted(set(_z)))) if {mixed}]")
            return
        if option.pile_codes is not None and option.target is None:  # a pile of a row: each pile's condition inline
            for pile, code in enumerate(option.pile_codes):
                lines.append(f"{inner}if {code}:")
                offer(f"{inner}    ", str(base + pile), many=False)
            return
        names[f"_o{option.index}"] = offer_function(option, width, card_width)
        offer(inner, f"_o{option.index}(s, S, seen)")
        if option.mechanic is not None or option.trick:
            in_order = False

    listing = ["def _step_offer(s, S):", "    c = 0", "    seen = {}", "    out = []"]
    write(listing, options, "    ", True)
    if fallbacks:
        listing.append("    if not out:")
        write(listing, fallbacks, "        ", True)
    if not in_order:
        listing.append("    out.sort()")
    listing.append("    return out")
    offered = ["def _step_any(s, S):", "    c = 0", "    seen = {}"]
    write(offered, options, "    ", False)
    write(offered, fallbacks, "    ", False)
    offered.append("    return False")
    exec(compiled("\n".join(listing + offered), "exec"), names)  # noqa: S102 - written from checked trees and the game's own tables
    function: StepOffer = names["_step_offer"]
    anything: StepAny = names["_step_any"]
    return function, anything


def _zone_offer(options: list[CompiledOption], width: int, card_width: int, designs: int) -> OfferFunction:
    """One function listing several own-card options that choose from the same zone: per design, the options that
    may take it are known before play (its card condition worked out once, or read in play where it depends on
    the position), so each distinct card in the zone is looked at once. Its list is not in order."""
    first = options[0]
    card_from, per_seat = first.card_from, first.card_from_seat
    takers: list[list[tuple[int, int, Callable[..., object] | None, Callable[..., list[int]] | None]]] = [[] for _ in range(designs)]
    """Per design: (the option's first action, its position in ``options``, its card condition when it must be read in
    play, its aimed seats) for every option whose condition does not rule the design out before play."""
    for k, option in enumerate(options):
        for design in range(designs):
            known = option.fixed[design] if option.where is not None else True
            if known is False:
                continue
            takers[design].append((option.index * width, k, option.where if known is None else None, option.aimed_seats))

    def zone_offer(s: DataState, seat: int, seen: dict[int, list[int]]) -> list[int]:
        slot = card_from + seat if per_seat else card_from
        zone = s.z[slot]
        if not zone:
            return []
        actions: list[int] = []
        aims: dict[int, list[int]] = {}  # an aimed option's seats, worked out the first time a card allows it
        for design in seen.get(slot) or seen.setdefault(slot, sorted(set(zone))):
            for base, k, where, aimed in takers[design]:
                if where is not None and not where(s, seat, design):
                    continue
                if aimed is None:
                    actions.append(base + design)
                else:
                    seats = aims.get(k)
                    if seats is None:
                        seats = aims[k] = aimed(s, seat)
                    actions.extend(base + target * card_width + design for target in seats)
        return actions

    return zone_offer
