"""Rules data's rows of piles, setup loops and zones shuffled back, checked against the spec (CG175, at the file and line).

Kept apart from :mod:`cardgen.spec.rules_check` so the construct's checks live together; that module calls
:func:`row_problems` and :func:`row_reads`.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from cardgen.spec.models import Spec
from cardgen.spec.rules_chance import binds_target
from cardgen.spec.rules_data import AddEffect, ArrangeEffect, DealStep, Effect, MoveEffect, MoveSpec, MoveStep, RulesData, SetAsideStep, SetEffect, ShuffleStep, StealEffect
from cardgen.spec.rules_expr import ExpressionError, Names, Reads, check_expression
from cardgen.spec.rules_data import RepeatStep
from cardgen.spec.rules_rows import ROW_EFFECT_KINDS, ShuffleBackStep
from cardgen.spec.source import PathKey

Problem = tuple[PathKey, str, str]


Effects = Sequence[tuple[PathKey, Effect, int, int]]
"""(path, effect, its index, the length of its list) of every effect of the turn, the card effects and the tricks
(what :func:`cardgen.spec.rules_check.rules_problems` passes in)."""


def _moves(rules: RulesData, effects: Effects) -> Iterator[tuple[PathKey, MoveSpec, bool]]:
    """(path of the move's mapping, the move, whether `card` is bound in its amounts) of every move of the rules data."""
    for i, step in enumerate(rules.setup):
        if isinstance(step, MoveStep):
            yield ("rules", "setup", i, "move"), step.move, False
        elif isinstance(step, RepeatStep):
            for k, effect in enumerate(step.repeat.do):
                if isinstance(effect, MoveEffect):
                    yield ("rules", "setup", i, "repeat", "do", k, "move"), effect.move, False
    for path, effect, _, _ in effects:
        if isinstance(effect, MoveEffect):
            yield path + ("move",), effect.move, path[1] == "effects" or _chooses_card(rules, path)


def _chooses_card(rules: RulesData, path: PathKey) -> bool:
    if path[1] != "turn":
        return False
    step, option = path[2], path[4]
    assert isinstance(step, int) and isinstance(option, int)
    return rules.turn[step].options[option].card is not None


def _loop_effects(rules: RulesData) -> list[tuple[PathKey, Effect, int, int]]:
    """(path, effect, its index, the length of its list) of every effect of the setup loops."""
    return [
        (("rules", "setup", i, "repeat", "do", k), effect, k, len(step.repeat.do))
        for i, step in enumerate(rules.setup)
        if isinstance(step, RepeatStep)
        for k, effect in enumerate(step.repeat.do)
    ]


def _loop_expressions(rules: RulesData) -> Iterator[tuple[PathKey, int | str]]:
    """(path, expression) of every setup loop's condition and its effects' amounts (read over the table, no card)."""
    for i, step in enumerate(rules.setup):
        if not isinstance(step, RepeatStep):
            continue
        here: PathKey = ("rules", "setup", i, "repeat")
        yield here + ("until",), step.repeat.until
        for k, effect in enumerate(step.repeat.do):
            if isinstance(effect, MoveEffect) and effect.move.count != "all":
                yield here + ("do", k, "move", "count"), effect.move.count
            elif isinstance(effect, AddEffect) and (effect.add.counter not in rules.counters or rules.counters[effect.add.counter].per_pile is None):
                yield here + ("do", k, "add", "amount"), effect.add.amount
            elif isinstance(effect, SetEffect):
                yield here + ("do", k, "set", "value"), effect.set.value


def _checked(names: Names, path: PathKey, source: int | str, *, card: bool, target: bool, pile: str | None, reads: Reads | None) -> Iterator[Problem]:
    try:
        _, read, _ = check_expression(source, names, card=card, target=target, pile=pile)
    except ExpressionError as error:
        yield path, str(error), "CG175"
        return
    if reads is not None:
        reads.merge(read)


def _all_expressions(rules: RulesData, names: Names, effects: Effects, reads: Reads | None) -> Iterator[Problem]:
    for path, source in _loop_expressions(rules):
        yield from _checked(names, path, source, card=False, target=False, pile=None, reads=reads)
    for path, effect, _, _ in [*effects, *_loop_effects(rules)]:
        target = binds_target(rules, path)
        if isinstance(effect, AddEffect):
            counter = rules.counters.get(effect.add.counter)
            row = counter.per_pile if counter is not None else None
            if row is not None and row in names.rows:
                card = path[1] == "effects" or _chooses_card(rules, path)
                yield from _checked(names, path + ("add", "amount"), effect.add.amount, card=card, target=target, pile=row, reads=reads)
                if effect.add.pile is not None and effect.add.pile.where is not None:
                    yield from _checked(names, path + ("add", "pile", "where"), effect.add.pile.where, card=card, target=target, pile=row, reads=reads)
        elif isinstance(effect, ArrangeEffect) and effect.arrange.pile is not None and effect.arrange.pile.where is not None and effect.arrange.zone in names.rows:
            yield from _checked(names, path + ("arrange", "pile", "where"), effect.arrange.pile.where, card=False, target=True, pile=effect.arrange.zone, reads=reads)
    for i, step in enumerate(rules.turn):
        for j, option in enumerate(step.options):
            aim = option.pile
            if aim is not None and aim.where is not None and aim.row in names.rows:
                path = ("rules", "turn", i, "options", j, "pile", "where")
                yield from _checked(names, path, aim.where, card=False, target=option.target is not None, pile=aim.row, reads=reads)
    for path, move, _ in _moves(rules, effects):
        if len(path) > 3 and path[3] == "repeat" and move.where is not None:
            yield from _checked(names, path + ("where",), move.where, card=True, target=False, pile=None, reads=reads)
        if move.pile is not None and move.pile.where is not None and move.to in names.rows:
            target = binds_target(rules, path)
            yield from _checked(names, path + ("pile", "where"), move.pile.where, card=True, target=target, pile=move.to, reads=reads)


def row_reads(rules: RulesData, names: Names, effects: Effects) -> Reads:
    """What the setup loops and the pile choices read (expressions that do not parse are skipped)."""
    reads = Reads()
    for _ in _all_expressions(rules, names, effects, reads):
        pass
    return reads


def _plain_zone_uses(rules: RulesData, effects: Effects) -> Iterator[tuple[PathKey, str]]:
    """Every use of a zone that reads or fills it as one pile (a row of piles is filled and emptied only by moves, which pick a pile
    for each card, read by a card choice across its piles, and arranged one pile at a time)."""
    for i, step in enumerate(rules.setup):
        if isinstance(step, ShuffleStep):
            yield ("rules", "setup", i, "shuffle", "to"), step.shuffle.to
        elif isinstance(step, DealStep):
            yield ("rules", "setup", i, "deal", "from"), step.deal.from_
            yield ("rules", "setup", i, "deal", "to"), step.deal.to
        elif isinstance(step, SetAsideStep):
            yield ("rules", "setup", i, "set_aside", "from"), step.set_aside.from_
            yield ("rules", "setup", i, "set_aside", "to"), step.set_aside.to
        elif isinstance(step, ShuffleBackStep):
            yield ("rules", "setup", i, "shuffle_back", "from"), step.shuffle_back.from_
            yield ("rules", "setup", i, "shuffle_back", "to"), step.shuffle_back.to
    for i, turn_step in enumerate(rules.turn):
        for j, option in enumerate(turn_step.options):
            if option.card is not None:
                yield ("rules", "turn", i, "options", j, "card", "to"), option.card.to
    for path, effect, _, _ in effects:
        if isinstance(effect, StealEffect):
            yield path + ("steal", "from"), effect.steal.from_
            yield path + ("steal", "to"), effect.steal.to
    for k, score in enumerate(rules.scoring):
        for key in ("sum", "all_or_nothing", "sets", "one_of_each"):
            spec = getattr(score, key, None)
            if spec is not None and hasattr(spec, "zone"):
                yield ("rules", "scoring", k, key, "zone"), spec.zone
    if rules.tricks is not None:
        yield ("rules", "tricks", "zone"), rules.tricks.zone
        yield ("rules", "tricks", "won"), rules.tricks.won


def row_filled(rules: RulesData) -> set[str]:
    """The zones the setup loops and the zones shuffled back put cards into."""
    filled: set[str] = set()
    for step in rules.setup:
        if isinstance(step, RepeatStep):
            filled.update(effect.move.to for effect in step.repeat.do if isinstance(effect, MoveEffect))
        elif isinstance(step, ShuffleBackStep):
            filled.add(step.shuffle_back.to)
    return filled


def row_problems(spec: Spec, rules: RulesData, names: Names, effects: Effects) -> Iterator[Problem]:
    """Everything about rows of piles, setup loops and zones shuffled back that the interpreter could not play as written."""
    decks = {deck.id: deck for deck in spec.decks}
    for name, zone in rules.zones.items():
        if zone.under is None:
            continue
        here: PathKey = ("rules", "zones", name, "under")
        deck = decks.get(zone.under)
        if deck is None:
            yield here, f"no deck {zone.under!r} to lay out under zone {name!r} (decks: {', '.join(sorted(decks))})", "CG175"
        elif not deck.cards:
            yield here, f"deck {zone.under!r} has no card, so the row {name!r} has no pile", "CG175"
        elif any(card.copies != 1 for card in deck.cards):
            many = next(card.id for card in deck.cards if card.copies != 1)
            copies = next(card.copies for card in deck.cards if card.id == many)
            yield here, f"card {many!r} of deck {zone.under!r} has {copies} copies; a row lays out one pile under each card, so every card has one copy", "CG175"
        if zone.per_seat:
            yield ("rules", "zones", name, "per_seat"), f"zone {name!r} is a row of piles (under), which the table shares; it cannot also be per seat", "CG175"
        if not zone.ordered:
            yield ("rules", "zones", name, "ordered"), f"zone {name!r} is a row of piles (under), and a pile has an order; it cannot be ordered: false", "CG175"
    rows = names.rows
    yield from _pile_use_problems(rules, names, effects)
    for path, zone_name in _plain_zone_uses(rules, effects):
        if zone_name in rows:
            yield path, f"zone {zone_name!r} is a row of piles; only moves (each card into or out of the pile their `pile` picks), a card choice from it, an arrangement of one of its piles and piles(ROW, CONDITION) use it", "CG175"
    for path, move, _ in _moves(rules, effects):
        if move.pile is not None and move.to not in rows and move.from_ not in rows:
            yield path + ("pile",), f"a pile choice needs a move from or into a row of piles (a zone with `under`), and neither {move.from_!r} nor {move.to!r} is one", "CG175"
        if move.from_ in rows and move.to in rows and rows[move.from_] != rows[move.to]:
            yield path + ("to",), f"rows {move.from_!r} and {move.to!r} lie under different decks, so a card has no pile of the same place to go to", "CG175"
        target = rules.zones.get(move.to)
        if move.place == "bottom" and target is not None and not target.ordered:
            yield path + ("place",), f"zone {move.to!r} is not ordered (ordered: false), so it has no bottom to put cards beneath", "CG175"
    for i, step in enumerate(rules.setup):
        if isinstance(step, RepeatStep):
            yield from _loop_problems(rules, ("rules", "setup", i, "repeat"), step.repeat.do)
        elif isinstance(step, ShuffleBackStep):
            for key, zone_name in (("from", step.shuffle_back.from_), ("to", step.shuffle_back.to)):
                shuffled = rules.zones.get(zone_name)
                if shuffled is None:
                    yield ("rules", "setup", i, "shuffle_back", key), f"no zone {zone_name!r} (zones: {', '.join(sorted(rules.zones))})", "CG175"
                elif shuffled.per_seat:
                    yield ("rules", "setup", i, "shuffle_back", key), f"zone {zone_name!r} is per seat; cards are shuffled back from and into a shared zone", "CG175"
            if step.shuffle_back.to in rules.zones and not rules.zones[step.shuffle_back.to].ordered:
                yield ("rules", "setup", i, "shuffle_back", "to"), f"zone {step.shuffle_back.to!r} is not ordered (ordered: false), so shuffling it changes nothing", "CG175"
    yield from _all_expressions(rules, names, effects, None)


def _pile_use_problems(rules: RulesData, names: Names, effects: Effects) -> Iterator[Problem]:
    """Counters kept per pile, pile choices of options, counters and arrangements, and card choices across a row."""
    rows = names.rows
    for name, counter in rules.counters.items():
        if counter.per_pile is None:
            continue
        if counter.per_pile not in rows:
            yield ("rules", "counters", name, "per_pile"), f"{counter.per_pile!r} is not a row of piles, a zone with `under` (rows: {', '.join(sorted(rows)) or 'none'})", "CG175"
        if counter.per_seat:
            yield ("rules", "counters", name, "per_seat"), f"counter {name!r} is kept per pile, which the table shares; set `per_seat: false`", "CG175"
    for path, effect, _, _ in [*effects, *_loop_effects(rules)]:
        if isinstance(effect, AddEffect) and effect.add.pile is not None and effect.add.counter not in names.pile_counters:
            yield path + ("add", "pile"), f"counter {effect.add.counter!r} is not kept per pile (per_pile), so it has no pile to choose", "CG175"
        elif isinstance(effect, ArrangeEffect) and effect.arrange.pile is not None and effect.arrange.zone not in rows:
            yield path + ("arrange", "pile"), f"zone {effect.arrange.zone!r} is not a row of piles, so it has no pile to choose", "CG175"
    for i, step in enumerate(rules.turn):
        for j, option in enumerate(step.options):
            here: PathKey = ("rules", "turn", i, "options", j)
            across = option.card is not None and option.card.from_ in rows
            if option.pile is not None:
                aim = option.pile
                if aim.row not in rows:
                    yield here + ("pile", "row"), f"{aim.row!r} is not a row of piles, a zone with `under` (rows: {', '.join(sorted(rows)) or 'none'})", "CG175"
                variable = rules.variables.get(aim.var)
                if variable is None:
                    yield here + ("pile", "var"), f"no variable {aim.var!r}", "CG175"
                elif variable.values != "id":
                    yield here + ("pile", "var"), f"variable {aim.var!r} receives the id of the card a pile lies under, so it is declared with `values: id`", "CG175"
            if (option.pile is not None or across) and (option.target is not None or option.mechanic is not None or (option.pile is not None and option.card is not None)):
                what = "a pile" if option.pile is not None else "a card across a row of piles"
                yield here, f"option {option.id!r} chooses {what}, and may not also choose a seat, a card or a mechanic's action", "CG175"


def _loop_problems(rules: RulesData, here: PathKey, effects: list[Effect]) -> Iterator[Problem]:
    """A loop's effects: only moves, counters and variables (no decision, no chance), each naming what exists."""
    for k, effect in enumerate(effects):
        path = here + ("do", k)
        if not isinstance(effect, (MoveEffect, AddEffect, SetEffect)):
            yield path, f"a setup loop repeats only {', '.join(ROW_EFFECT_KINDS)} (no decision and no chance before the first turn)", "CG175"
        elif isinstance(effect, MoveEffect):
            for key, zone in (("from", effect.move.from_), ("to", effect.move.to)):
                if zone not in rules.zones:
                    yield path + ("move", key), f"no zone {zone!r} (zones: {', '.join(sorted(rules.zones))})", "CG175"
        elif isinstance(effect, AddEffect) and effect.add.counter not in rules.counters:
            yield path + ("add", "counter"), f"no counter {effect.add.counter!r}", "CG175"
        elif isinstance(effect, SetEffect) and effect.set.var not in rules.variables:
            yield path + ("set", "var"), f"no variable {effect.set.var!r}", "CG175"
