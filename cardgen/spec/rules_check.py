"""Rules data checked against itself and the spec, and the contract it implies.

:func:`rules_problems` finds, with the path of each, everything in a spec's rules
data that the interpreter could not play: an expression naming an unknown zone,
counter, variable, field, number or setup entry; an effect or step that does not
exist; a turn step from which the turn can never end; a card effect with no rule,
or a rule no card carries. :func:`derived_contract` says what the rules data reads
(numbers, setup entries, decks and fields, effects), so the validator's contract
checks (CG170-CG174) apply to a data game exactly as to a rules module.
"""

from __future__ import annotations

import ast
import keyword
from typing import Any, Iterator, Sequence

from cardgen.limits import MAX_PLAYERS, MAX_RULES_COUNT, MAX_TURN_LIMIT, over
from cardgen.spec.contract import ComponentRule, DeckRule, DiceRule, NumberRule, OptionRule, RulesContract, SetupRule
from cardgen.spec.models import FieldType, Spec
from cardgen.spec.rules_data import (
    AddEffect,
    ArrangeEffect,
    AllOrNothingScore,
    ChooseEffect,
    CounterScore,
    DealStep,
    Effect,
    FirstSeatWhere,
    MoveEffect,
    MoveStep,
    Option,
    RulesData,
    SetAsideStep,
    RepeatStep,
    SetEffect,
    SetsScore,
    MajorityScore,
    OneOfEachScore,
    SetStep,
    ShuffleStep,
    SkipEffect,
    StealEffect,
    SwapEffect,
    SumScore,
    TransferEffect,
)
from cardgen.spec.rules_chance import aimed_steps, binds_target, chance_problems, chosen_from_target, dice_rolled, passed_over_to, steal_zone_uses, target_expressions
from cardgen.spec.rules_expr import BUILTIN_NAMES, CARD_ATTRIBUTES, ROUND_NAMES, ANY, MIXED, NUMBER, TEXT, ExpressionError, Names, Reads, check_expression, field_kind, parse_expression, read_tree
from cardgen.spec.rules_majority import majority_fields, majority_problems
from cardgen.spec.rules_rows_check import row_filled, row_problems, row_reads
from cardgen.spec.rules_sets import FILL_WORDS, fill_words, sets_fields, sets_problems
from cardgen.spec.rules_tricks import trick_problems
from cardgen.spec.source import PathKey

LIST_ELEMENTS = {"int_list": NUMBER, "palette_list": TEXT}
"""The list field types an expression may look a value up in (``X in card.FIELD``), with the kind of their elements."""
KEEP_PASSES = "keep"
"""``passes: keep``: an option that neither passes nor breaks a run of passes."""
NUMBER_RANGE = (-1_000_000, 1_000_000)
"""The range a number read by rules data may take (the rules data itself bounds what is playable)."""


def decks_in_play(rules: RulesData) -> list[str]:
    """The deck ids the setup shuffles into play, in order, then the decks laid out under rows of piles (``under``)."""
    shuffled = [step.shuffle.deck for step in rules.setup if isinstance(step, ShuffleStep)]
    return shuffled + [zone.under for zone in rules.zones.values() if zone.under is not None and zone.under not in shuffled]


def names_of(spec: Spec, rules: RulesData) -> Names:
    """The names the expressions of ``rules`` may use."""
    fields: set[str] = set()
    kinds: dict[str, str] = {}
    lists: dict[str, str] = {}
    in_play = set(decks_in_play(rules))
    for deck in spec.decks:
        if deck.id in in_play:
            fields.update(deck.fields)
            for name, definition in deck.fields.items():
                kind = field_kind(definition.type)
                kinds[name] = kind if kinds.get(name, kind) == kind else MIXED
                element = LIST_ELEMENTS.get(definition.type)
                if element is not None:
                    lists[name] = element if lists.get(name, element) == element else MIXED
    setup: set[str] = set()
    for entry in spec.setups:
        setup.update(f"deal.{deck}" for deck in entry.deal)
        setup.update(f"display.{deck}" for deck in entry.display)
        setup.update(f"pieces.{component}" for component in entry.pieces)
    return Names(
        zones={name: zone.per_seat for name, zone in rules.zones.items()},
        counters={name: counter.per_seat for name, counter in rules.counters.items()},
        variables=frozenset(rules.variables),
        fields=frozenset(fields),
        numbers=frozenset(spec.numbers),
        setup=frozenset(setup),
        card_ids=frozenset(card.id for deck in spec.decks if deck.id in in_play for card in deck.cards),
        field_kinds=kinds,
        list_kinds=lists,
        variable_kinds={  # a variable without `values` holds a number a roll or a `set` gives it; one over a card's id, type or effect a text
            name: (TEXT if variable.values in CARD_ATTRIBUTES else kinds.get(variable.values, ANY)) if variable.values is not None else NUMBER
            for name, variable in rules.variables.items()
        },
        options={name: tuple(option.choices) for name, option in rules.options.items()},
        rows={name: zone.under for name, zone in rules.zones.items() if zone.under is not None},
        pile_counters={name: counter.per_pile for name, counter in rules.counters.items() if counter.per_pile is not None},
        components=frozenset(component.id for component in spec.components),
        mechanics=frozenset(rules.mechanics),
        rounds=rules.rounds is not None,
    )


def all_expressions(rules: RulesData) -> Iterator[tuple[PathKey, int | str, bool]]:
    """(path, expression, whether `card` is bound) of every expression in the rules data."""
    base: PathKey = ("rules",)
    per_pile = frozenset(name for name, counter in rules.counters.items() if counter.per_pile is not None)
    for name, counter in rules.counters.items():
        yield base + ("counters", name, "start"), counter.start, False
    for i, step in enumerate(rules.setup):
        here = base + ("setup", i)
        if isinstance(step, DealStep):
            yield here + ("deal", "count"), step.deal.count, False
        elif isinstance(step, MoveStep):
            if step.move.count != "all":
                yield here + ("move", "count"), step.move.count, False
            if step.move.where is not None:
                yield here + ("move", "where"), step.move.where, True
        elif isinstance(step, SetStep):
            yield here + ("set", "value"), step.set.value, False
        elif isinstance(step, SetAsideStep):
            yield here + ("set_aside", "where"), step.set_aside.where, True
    if isinstance(rules.first_player, FirstSeatWhere):
        yield base + ("first_player", "where"), rules.first_player.where, False
    if rules.tricks is not None:
        tricks = rules.tricks
        if tricks.trump is not None:
            yield base + ("tricks", "trump"), tricks.trump, False
        for key in ("lead", "discard"):
            value = getattr(tricks, key)
            if value is not None:
                yield base + ("tricks", key), value, True
        yield from _effect_expressions(base + ("tricks", "after"), tricks.after, False, per_pile)
    for i, turn_step in enumerate(rules.turn):
        if turn_step.when is not None:
            yield base + ("turn", i, "when"), turn_step.when, False
        for j, option in enumerate(turn_step.options):
            here = base + ("turn", i, "options", j)
            if option.when is not None:
                yield here + ("when",), option.when, False
            if isinstance(option.passes, str) and option.passes != KEEP_PASSES:
                yield here + ("passes",), option.passes, False
            if option.card is not None and option.card.where is not None:
                yield here + ("card", "where"), option.card.where, True
            yield from _effect_expressions(here + ("do",), option.do, option.card is not None, per_pile)
    for effect_id, effects in rules.effects.items():
        yield from _effect_expressions(base + ("effects", effect_id), effects, True, per_pile)
    end = rules.end
    for key in ("any_seat", "table", "all_seats"):
        value = getattr(end, key)
        if value is not None:
            yield base + ("end", key), value, False
    if end.turn_limit is not None:
        yield base + ("end", "turn_limit"), end.turn_limit, False
    if end.final is not None:
        yield base + ("end", "final", "when"), end.final.when, False
        yield base + ("end", "final", "turns"), end.final.turns, False
    for k, score in enumerate(rules.scoring):
        if isinstance(score, SetsScore):
            here = base + ("scoring", k, "sets")
            if score.sets.per is not None:
                yield here + ("per",), score.sets.per, False
            if score.sets.wild is not None:
                yield here + ("wild", "where"), score.sets.wild.where, True
                if score.sets.wild.fills not in FILL_WORDS:
                    yield here + ("wild", "fills"), score.sets.wild.fills, False
    for k, tiebreak in enumerate(rules.tiebreaks):
        yield base + ("tiebreaks", k), tiebreak, False
    for k, score in enumerate(rules.scoring):
        if isinstance(score, OneOfEachScore):
            for key in ("points", "bonus", "bonus_at", "multiplied", "times"):
                yield base + ("scoring", k, "one_of_each", key), getattr(score.one_of_each, key), False
        elif isinstance(score, MajorityScore):
            for place, points in enumerate(score.majority.points):
                yield base + ("scoring", k, "majority", "points", place), points, False


def _effect_expressions(path: PathKey, effects: Sequence[Effect], card: bool, per_pile: frozenset[str] = frozenset()) -> Iterator[tuple[PathKey, int | str, bool]]:
    """(path, expression, whether `card` is bound) of every expression of ``effects`` (the amounts of counters kept per pile, read
    with their pile bound, are checked by :mod:`cardgen.spec.rules_rows_check`)."""
    for k, effect in enumerate(effects):
        if isinstance(effect, MoveEffect) and effect.move.where is not None:
            yield path + (k, "move", "where"), effect.move.where, True
        if isinstance(effect, MoveEffect) and effect.move.count != "all":
            yield path + (k, "move", "count"), effect.move.count, card
        elif isinstance(effect, AddEffect) and effect.add.counter not in per_pile:
            yield path + (k, "add", "amount"), effect.add.amount, card
        elif isinstance(effect, ArrangeEffect) and effect.arrange.count != "all":
            yield path + (k, "arrange", "count"), effect.arrange.count, card
        elif isinstance(effect, SetEffect):
            yield path + (k, "set", "value"), effect.set.value, card


def _zone_uses(rules: RulesData) -> Iterator[tuple[PathKey, str]]:
    base: PathKey = ("rules",)
    for i, step in enumerate(rules.setup):
        here = base + ("setup", i)
        if isinstance(step, ShuffleStep):
            yield here + ("shuffle", "to"), step.shuffle.to
        elif isinstance(step, DealStep):
            yield here + ("deal", "from"), step.deal.from_
            yield here + ("deal", "to"), step.deal.to
        elif isinstance(step, MoveStep):
            yield here + ("move", "from"), step.move.from_
            yield here + ("move", "to"), step.move.to
        elif isinstance(step, SetAsideStep):
            yield here + ("set_aside", "from"), step.set_aside.from_
            yield here + ("set_aside", "to"), step.set_aside.to
    if rules.tricks is not None:
        yield base + ("tricks", "zone"), rules.tricks.zone
        yield base + ("tricks", "won"), rules.tricks.won
        for k, effect in enumerate(rules.tricks.after):
            if isinstance(effect, MoveEffect):
                yield base + ("tricks", "after", k, "move", "from"), effect.move.from_
                yield base + ("tricks", "after", k, "move", "to"), effect.move.to
    for i, turn_step in enumerate(rules.turn):
        for j, option in enumerate(turn_step.options):
            here = base + ("turn", i, "options", j)
            if option.card is not None:
                yield here + ("card", "from"), option.card.from_
                yield here + ("card", "to"), option.card.to
            for k, effect in enumerate(option.do):
                if isinstance(effect, MoveEffect):
                    yield here + ("do", k, "move", "from"), effect.move.from_
                    yield here + ("do", k, "move", "to"), effect.move.to
    for effect_id, effects in rules.effects.items():
        for k, effect in enumerate(effects):
            if isinstance(effect, MoveEffect):
                yield base + ("effects", effect_id, k, "move", "from"), effect.move.from_
                yield base + ("effects", effect_id, k, "move", "to"), effect.move.to
    for k, score in enumerate(rules.scoring):
        if isinstance(score, SumScore):
            yield base + ("scoring", k, "sum", "zone"), score.sum.zone
        elif isinstance(score, AllOrNothingScore):
            yield base + ("scoring", k, "all_or_nothing", "zone"), score.all_or_nothing.zone
        elif isinstance(score, SetsScore):
            yield base + ("scoring", k, "sets", "zone"), score.sets.zone
            if score.sets.wild is not None:
                yield base + ("scoring", k, "sets", "wild", "zone"), score.sets.wild.zone

        elif isinstance(score, OneOfEachScore):
            yield base + ("scoring", k, "one_of_each", "zone"), score.one_of_each.zone
        elif isinstance(score, MajorityScore):
            yield base + ("scoring", k, "majority", "zone"), score.majority.zone


def _arrange_problems(rules: RulesData, path: PathKey, effect: ArrangeEffect, index: int, length: int) -> Iterator[tuple[PathKey, str, str]]:
    """An arrangement of a zone that does not exist or has no order, or that is not the last effect of its list."""
    zone = rules.zones.get(effect.arrange.zone)
    if zone is None:
        yield path + ("arrange", "zone"), f"no zone {effect.arrange.zone!r} (zones: {', '.join(sorted(rules.zones))})", "CG175"
    elif not zone.ordered:
        yield path + ("arrange", "zone"), f"zone {effect.arrange.zone!r} is not ordered (ordered: false), so its cards have no order to arrange", "CG175"
    if index != length - 1:
        yield path, "an arrangement must be the last effect of its list (what follows it waits for the seat's choices)", "CG175"


def all_effects(rules: RulesData) -> Iterator[tuple[PathKey, Effect, int, int]]:
    """(path, effect, its index, the length of its list) of every effect."""
    for i, turn_step in enumerate(rules.turn):
        for j, option in enumerate(turn_step.options):
            for k, effect in enumerate(option.do):
                yield ("rules", "turn", i, "options", j, "do", k), effect, k, len(option.do)
    for effect_id, effects in rules.effects.items():
        for k, effect in enumerate(effects):
            yield ("rules", "effects", effect_id, k), effect, k, len(effects)
    if rules.tricks is not None:
        for k, effect in enumerate(rules.tricks.after):
            yield ("rules", "tricks", "after", k), effect, k, len(rules.tricks.after)


def rules_problems(spec: Spec, rules: RulesData, mechanic_fills: frozenset[str] = frozenset()) -> Iterator[tuple[PathKey, str, str]]:
    """(path, problem, code) of everything the interpreter could not play as written."""
    names = names_of(spec, rules)
    for path, source, card in all_expressions(rules):
        try:
            tree, reads, kind = check_expression(source, names, card=card, target=binds_target(rules, path))
        except ExpressionError as error:
            yield path, str(error), "CG175"
            continue
        problem = _constant_problem(path, source, tree, reads) or _kind_problem(rules, names, path, source, kind)
        if problem:
            yield path, problem, "CG175"
    for i, step in enumerate(rules.setup):  # a setup loop's sets (their texts are checked with the rows): the value's kind
        for k, effect in enumerate(step.repeat.do if isinstance(step, RepeatStep) else ()):
            if isinstance(effect, SetEffect):
                try:
                    kind = check_expression(effect.set.value, names, card=False, target=False)[2]
                except ExpressionError:
                    continue
                at: PathKey = ("rules", "setup", i, "repeat", "do", k, "set", "value")
                problem = _kind_problem(rules, names, at, effect.set.value, kind)
                if problem:
                    yield at, problem, "CG175"
    for path, source, card in target_expressions(rules):
        try:
            parse_expression(source, names, card=card, target=True)
        except ExpressionError as error:
            yield path, str(error), "CG175"
    yield from _name_clashes(rules)
    if rules.tricks is not None and rules.tricks.trump is not None:
        yield from _trump_kind(rules.tricks.trump, rules.tricks.follow, names)
    for name, kept in rules.counters.items():
        here: PathKey = ("rules", "counters", name)
        if kept.min > kept.max:
            yield here + ("min",), f"counter {name!r} has min {kept.min} above its max {kept.max}", "CG175"
        elif isinstance(kept.start, int) and not kept.min <= kept.start <= kept.max:
            yield here + ("start",), f"counter {name!r} starts at {kept.start}, outside its range [{kept.min}, {kept.max}]", "CG175"
    for i, turn_step in enumerate(rules.turn):
        for j, option in enumerate(turn_step.options):
            if option.card is None or option.card.whose != "target":
                continue
            here = ("rules", "turn", i, "options", j, "card", "whose")
            if option.card.from_ in rules.zones and not rules.zones[option.card.from_].per_seat:
                yield here, f"zone {option.card.from_!r} is shared; `whose: target` chooses from a seat's own zone", "CG175"
            elif option.target is None and turn_step.id not in aimed_steps(rules):
                yield here, "`whose: target` chooses from the zone of the seat the turn aims at, and some way into this step comes from no option with a `target` (give the option a `target`)", "CG175"
    for path, zone in [*_zone_uses(rules), *steal_zone_uses(all_effects(rules))]:
        if zone not in rules.zones:
            yield path, f"no zone {zone!r} (zones: {', '.join(sorted(rules.zones))})", "CG175"
    deck_ids = {deck.id for deck in spec.decks}
    for i, step in enumerate(rules.setup):
        if isinstance(step, ShuffleStep) and step.shuffle.deck not in deck_ids:
            yield ("rules", "setup", i, "shuffle", "deck"), f"no deck {step.shuffle.deck!r}", "CG175"
        if isinstance(step, SetStep) and step.set.var not in rules.variables:
            yield ("rules", "setup", i, "set", "var"), f"no variable {step.set.var!r}", "CG175"
    for path, effect, index, length in all_effects(rules):
        if isinstance(effect, ArrangeEffect):
            yield from _arrange_problems(rules, path, effect, index, length)
        if isinstance(effect, AddEffect) and effect.add.counter not in rules.counters:
            yield path + ("add", "counter"), f"no counter {effect.add.counter!r}", "CG175"
        elif isinstance(effect, TransferEffect):
            for key, counter in (("from", effect.transfer.from_), ("to", effect.transfer.to)):
                if counter not in rules.counters:
                    yield path + ("transfer", key), f"no counter {counter!r}", "CG175"
        elif isinstance(effect, (SetEffect, ChooseEffect)):
            var = effect.set.var if isinstance(effect, SetEffect) else effect.choose
            if var not in rules.variables:
                yield path, f"no variable {var!r}", "CG175"
            elif isinstance(effect, ChooseEffect) and index != length - 1:
                yield path, "a choice must be the last effect of its list (what follows it waits for the decision)", "CG175"
            elif isinstance(effect, ChooseEffect) and rules.variables[var].values is not None and not _has_values(spec, rules, rules.variables[var].values or ""):
                yield path, f"variable {var!r} takes the values of {rules.variables[var].values!r}, which no card in play has, so the choice offers nothing", "CG175"
    for name, variable in rules.variables.items():
        if variable.values is not None and variable.values not in names.fields and variable.values not in CARD_ATTRIBUTES:
            yield ("rules", "variables", name, "values"), f"no card field {variable.values!r} in the decks in play", "CG175"
        if variable.flag is not None and variable.values is not None:
            yield ("rules", "variables", name, "flag"), f"variable {name!r} holds the values of card field {variable.values!r}; a `flag` holds only 1 or 0", "CG175"
    for k, score in enumerate(rules.scoring):
        if isinstance(score, SumScore) and score.sum.field not in names.fields:
            yield ("rules", "scoring", k, "sum", "field"), f"no card field {score.sum.field!r} in the decks in play", "CG175"
        elif isinstance(score, AllOrNothingScore):
            if score.all_or_nothing.field not in names.fields:
                yield ("rules", "scoring", k, "all_or_nothing", "field"), f"no card field {score.all_or_nothing.field!r} in the decks in play", "CG175"
        elif isinstance(score, SetsScore):
            yield from sets_problems(rules, names, ("rules", "scoring", k, "sets"), score)
        elif isinstance(score, OneOfEachScore):
            yield from _one_of_each_problems(names, k, score)
        elif isinstance(score, MajorityScore):
            yield from majority_problems(rules, names, ("rules", "scoring", k, "majority"), score)
        elif isinstance(score, CounterScore) and score.counter not in rules.counters:
            yield ("rules", "scoring", k, "counter"), f"no counter {score.counter!r}", "CG175"
    for i, step in enumerate(rules.setup):
        if isinstance(step, SetAsideStep):
            for key, zone in (("from", step.set_aside.from_), ("to", step.set_aside.to)):
                if zone in rules.zones and rules.zones[zone].per_seat:
                    yield ("rules", "setup", i, "set_aside", key), f"zone {zone!r} is per seat; cards are set aside from and to a shared zone", "CG175"
    yield from _option_problems(rules, names)
    yield from chosen_from_target(rules)
    yield from chance_problems(spec, rules, list(all_effects(rules)))
    yield from _turn_problems(rules)
    yield from _effect_problems(spec, rules)
    yield from _unreachable_choices(rules, mechanic_fills)
    yield from _round_problems(rules)
    if rules.tricks is not None:
        yield from trick_problems(spec, rules, rules.tricks, names)
    yield from row_problems(spec, rules, names, list(all_effects(rules)))


def _option_problems(rules: RulesData, names: Names) -> Iterator[tuple[PathKey, str, str]]:
    """A rule option whose default is not a choice, with a choice twice, or that nothing reads (its choices could not change play)."""
    read: set[str] = set()
    for path, source, card in [*all_expressions(rules), *target_expressions(rules)]:
        try:
            read.update(parse_expression(source, names, card=card, target=binds_target(rules, path))[1].options)
        except ExpressionError:
            continue
    for name, option in rules.options.items():
        here: PathKey = ("rules", "options", name)
        if option.default not in option.choices:
            yield here + ("default",), f"option {name!r} defaults to {option.default!r}, which is not one of its choices ({', '.join(option.choices)})", "CG175"
        if len(set(option.choices)) != len(option.choices):
            yield here + ("choices",), f"option {name!r} lists a choice twice", "CG175"
        if name not in read:
            yield here, f"no expression reads option {name!r} (as `options.{name}`), so its choices cannot change play", "CG175"


RESERVED_NAMES = BUILTIN_NAMES | ROUND_NAMES | frozenset({"true", "false", "card", "numbers", "setup", "options", "target"})
"""Words of the expression language a zone, counter or variable may not be named (it would hide them, or they it)."""


def _name_clashes(rules: RulesData) -> Iterator[tuple[PathKey, str, str]]:
    """Zones, counters and variables named like a word of the expression language, a Python keyword, or each other."""
    seen: dict[str, str] = {}
    for kind, names in (("zones", rules.zones), ("counters", rules.counters), ("variables", rules.variables)):
        for name in names:
            here: PathKey = ("rules", kind, name)
            if name in RESERVED_NAMES or keyword.iskeyword(name):
                yield here, f"{name!r} is a word of the expression language; name the {kind[:-1]} otherwise", "CG175"
            elif name in seen:
                yield here, f"{name!r} names both a {seen[name]} and a {kind[:-1]}; an expression could not tell them apart", "CG175"
            seen.setdefault(name, kind[:-1])


def _trump_kind(trump: int | str, follow: str, names: Names) -> Iterator[tuple[PathKey, str, str]]:
    """A trump that can never equal a value of the field followed (a number when the suits are texts)."""
    try:
        _, _, kind = check_expression(trump, names)
    except ExpressionError:
        return  # reported with the other expressions
    wanted = names.field_kinds.get(follow, ANY)
    if ANY not in (kind, wanted) and kind != wanted:
        yield ("rules", "tricks", "trump"), f"the trump {trump!r} gives {kind} values, and {follow!r} holds {wanted} values, so no card is ever a trump", "CG175"


def _one_of_each_problems(names: Names, k: int, score: OneOfEachScore) -> Iterator[tuple[PathKey, str, str]]:
    """A ``sets`` item whose field is not a card field, or whose value no design has (it could never score)."""
    here: PathKey = ("rules", "scoring", k, "one_of_each")
    spec = score.one_of_each
    if spec.field not in names.fields and spec.field not in CARD_ATTRIBUTES:
        yield here + ("field",), f"no card field {spec.field!r} in the decks in play", "CG175"


_SCORE_CONSTANTS = frozenset({"points", "bonus", "bonus_at", "times"})
"""The keys of a ``sets`` item worked out once, before play."""
_COUNTS = frozenset({"count", "amount", "start", "turn_limit", "per", "turns", "points", "bonus", "bonus_at", "multiplied", "times", "passes"})
"""The last keys of the paths of expressions that give a whole number (a count, an amount, a start, a limit)."""


def _last_key(path: PathKey) -> object:
    """The last name of a path: ``points`` for ``(..., "points", 2)``, the third entry of a list of points."""
    return path[-2] if isinstance(path[-1], int) and len(path) > 1 else path[-1]


def _constant_problem(path: PathKey, source: int | str, tree: ast.expr, reads: Reads) -> str | None:
    """Why an expression worked out once, before play (a counter's start, a deal's count, the turn limit), reads
    something only a position has (a zone, a counter, a variable, the turn), or None."""
    fixed = (
        path[-2:] in (("deal", "count"), ("sets", "per"), ("wild", "fills"), ("final", "turns"))
        or path[-1] == "turn_limit"
        or (path[1] == "counters" and path[-1] == "start")
        or (path[1] == "scoring" and _last_key(path) in _SCORE_CONSTANTS)
    )
    if not fixed:
        return None
    position = sorted(reads.zones | reads.counters | reads.variables)
    position += sorted({node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in {"turn"} | ROUND_NAMES})
    if position:
        return f"{source!r} is worked out once, before play, so it may read numbers, setup entries and `players`, not {', '.join(position)}"
    return None


def _kind_problem(rules: RulesData, names: Names, path: PathKey, source: int | str, kind: str) -> str | None:
    """Why an expression's kind of value does not fit where it stands (a text as a count), or None."""
    if _last_key(path) in _COUNTS and kind not in (NUMBER, ANY):
        return f"{source!r} gives a text or a list where a whole number is needed"
    if isinstance(source, int) and path[-1] == "count" and not -MAX_RULES_COUNT <= source <= MAX_RULES_COUNT:
        return over(f"{path[-1]} is", source, MAX_RULES_COUNT, "(either sign)")
    if isinstance(source, int) and path[1] == "scoring" and not -MAX_RULES_COUNT <= source <= MAX_RULES_COUNT:
        return over(f"{_last_key(path)} is", source, MAX_RULES_COUNT, "(either sign)")
    if isinstance(source, int) and path[-2:] == ("final", "turns") and not 0 <= source <= MAX_TURN_LIMIT:
        return f"final turns is {source:,}; it must lie between 0 and {MAX_TURN_LIMIT:,}"
    if isinstance(source, int) and path[-1] == "turn_limit" and not 1 <= source <= MAX_TURN_LIMIT:
        return f"turn_limit is {source:,}; it must lie between 1 and {MAX_TURN_LIMIT:,}"
    if path[-2:] == ("wild", "fills") and kind not in (NUMBER, ANY) and not fill_words(names, source):
        return f"{source!r} gives neither a whole number nor one of {', '.join(FILL_WORDS)} (a text that is an option whose choices are those words)"
    if path[-2:] == ("set", "value"):
        var = _set_variable(rules, path)
        if var in rules.variables and rules.variables[var].flag is not None and not flag_value(source):
            return f"{source!r} may give a value other than 1 or 0, and variable {var!r} is a `flag` (give 1, 0 or `1 if CONDITION else 0`)"
        wanted = names.variable_kinds.get(var, ANY) if var is not None else ANY
        if ANY not in (wanted, kind) and kind != wanted:
            return f"{source!r} gives {kind} values, and variable {var!r} takes {wanted} values (those of its field)"
    return None


def flag_value(source: int | str) -> bool:
    """Whether ``source`` can only give 1 or 0: one of them, or ``A if CONDITION else B`` with such an A and B."""
    if isinstance(source, int):
        return source in (0, 1) and not isinstance(source, bool)
    try:
        tree = read_tree(source)
    except ExpressionError:
        return True  # (a text the checker refuses is reported there)

    def only_0_or_1(node: ast.expr) -> bool:
        if isinstance(node, ast.IfExp):
            return only_0_or_1(node.body) and only_0_or_1(node.orelse)
        return isinstance(node, ast.Constant) and type(node.value) is int and node.value in (0, 1)

    return only_0_or_1(tree)


def _set_variable(rules: RulesData, path: PathKey) -> str | None:
    """The variable a ``set`` at ``path`` (its ``value``) sets."""
    node: Any = rules
    for key in path[1:-1]:
        node = node[key] if isinstance(key, int) or isinstance(node, dict) else getattr(node, str(key), None)
        if node is None:
            return None
    var = getattr(node, "var", None)
    return var if isinstance(var, str) else None


def _has_values(spec: Spec, rules: RulesData, field: str) -> bool:
    """Whether some card in play gives ``field`` a value (a variable of that field has something to choose)."""
    in_play = set(decks_in_play(rules))
    return any(card.data.get(field) is not None for deck in spec.decks if deck.id in in_play for card in deck.cards)


TURN_WORDS = ("end", "again", "next")
"""Where an option's ``then`` may go besides a step id; no step may be named like them."""


def _turn_problems(rules: RulesData) -> Iterator[tuple[PathKey, str, str]]:
    steps = {step.id: i for i, step in enumerate(rules.turn)}
    aimed = aimed_steps(rules)
    for i, step in enumerate(rules.turn):
        here: PathKey = ("rules", "turn", i)
        if step.id in TURN_WORDS:
            yield here + ("id",), f"a step may not be named {step.id!r}: `then: {step.id}` means something else", "CG175"
        if step.by != "turn" and i == 0:
            yield here + ("by",), "a turn starts with a decision of the seat whose turn it is; a reaction (`by`) comes after it", "CG175"
        elif step.by == "target" and step.id not in aimed:
            yield here + ("by",), f"step {step.id!r} is decided by the seat aimed at, and some way into it comes from no option with a `target`", "CG175"
        if step.by == "others" and step.after is None:
            yield here, f"step {step.id!r} is a window for the other seats (`by: others`); say where the turn goes when none acts (`after:` a step id or end)", "CG175"
        elif step.by != "others" and step.after is not None:
            yield here + ("after",), "`after` is where a `by: others` window goes when no seat is left; this step is not one", "CG175"
        elif step.after is not None and step.after != "end" and step.after not in steps:
            yield here + ("after",), f"no step {step.after!r} (steps: {', '.join(steps)}; or end)", "CG175"
        for j, option in enumerate(step.options):
            if option.then not in TURN_WORDS and option.then not in steps:
                yield here + ("options", j, "then"), f"no step {option.then!r} (steps: {', '.join(steps)}; or end, again, next)", "CG175"
            elif option.then == "next" and step.by != "others":
                yield here + ("options", j, "then"), "`then: next` hands a `by: others` window to the following seat; this step is not one", "CG175"
            if option.passes and option.passes != KEEP_PASSES and step.by != "turn":
                yield here + ("options", j, "passes"), "only the seat whose turn it is passes (for `end.all_pass`); this option is a reaction", "CG175"
    # Windows that close into each other with nobody acting would hand the turn round for ever.
    for i, step in enumerate(rules.turn):
        seen, at = [step.id], step
        while at.by == "others" and at.after in steps:
            at = rules.turn[steps[at.after]]
            if at.id in seen:
                if at.id == step.id:
                    yield ("rules", "turn", i, "after"), f"windows {' -> '.join(seen + [at.id])} close into each other, so when nobody acts the turn never ends", "CG176"
                break
            seen.append(at.id)
    # A step from which no chain of options ever ends the turn keeps the turn going for ever.
    ends: set[str] = set()
    changed = True
    while changed:
        changed = False
        for step in rules.turn:
            into = [step.after if o.then == "next" else o.then for o in step.options]
            if step.by == "others":
                into.append(step.after)
            if step.when is not None:
                into.append(passed_over_to(rules, step.id))
            if step.id not in ends and any(t == "end" or t in ends for t in into):
                ends.add(step.id)
                changed = True
    for i, step in enumerate(rules.turn):
        if step.id not in ends:
            yield ("rules", "turn", i), f"the turn can never end from step {step.id!r}: no option leads to `then: end`", "CG176"


def _effect_problems(spec: Spec, rules: RulesData) -> Iterator[tuple[PathKey, str, str]]:
    in_play = set(decks_in_play(rules))
    carried: set[str] = set()
    for d, deck in enumerate(spec.decks):
        if deck.id not in in_play:
            continue
        for c, card in enumerate(deck.cards):
            if card.effect is None:
                continue
            carried.add(card.effect)
            if card.effect not in rules.effects:
                yield ("decks", d, "cards", c, "effect"), f"card {card.id!r} carries effect {card.effect!r}, which the rules data does not define", "CG175"
    chosen = any(option.card is not None and option.card.effects for step in rules.turn for option in step.options)
    for effect_id in rules.effects:
        if effect_id not in carried:
            yield ("rules", "effects", effect_id), f"no card in play carries effect {effect_id!r}, so it can never happen", "CG177"
        elif not chosen:
            yield ("rules", "effects", effect_id), f"effect {effect_id!r} happens when its card is chosen, and no option chooses a card with its effects", "CG177"


def _round_problems(rules: RulesData) -> Iterator[tuple[PathKey, str, str]]:
    """With ``rounds`` every seat takes exactly one turn a round, in turn order: nothing may skip, reverse or repeat a
    turn, and no trick's winner may lead out of turn (``round_turn`` and the first player's move rely on it)."""
    if rules.rounds is None:
        return
    for path, effect, _, _ in all_effects(rules):
        if isinstance(effect, SkipEffect) or effect in ("reverse", "extra_turn"):
            word = "skip" if isinstance(effect, SkipEffect) else effect
            yield path, f"`{word}` changes the turn order, and with `rounds` every seat takes one turn a round in turn order", "CG175"
    if rules.tricks is not None:
        yield ("rules", "rounds"), "a trick's winner leads next, and with `rounds` every seat takes one turn a round in turn order", "CG175"


def _zones_filled(rules: RulesData) -> set[str]:
    """Every zone some setup step, option or effect puts cards into."""
    filled: set[str] = set()
    for step in rules.setup:
        if isinstance(step, ShuffleStep):
            filled.add(step.shuffle.to)
        elif isinstance(step, DealStep):
            filled.add(step.deal.to)
        elif isinstance(step, MoveStep):
            filled.add(step.move.to)
        elif isinstance(step, SetAsideStep):
            filled.add(step.set_aside.to)
    if rules.tricks is not None:
        filled.add(rules.tricks.won)
    for path, effect, _, _ in all_effects(rules):
        if isinstance(effect, MoveEffect):
            filled.add(effect.move.to)
        elif isinstance(effect, StealEffect):
            filled.add(effect.steal.to)
        elif isinstance(effect, SwapEffect):
            filled.update({effect.swap.zone, effect.swap.other or effect.swap.zone})  # each zone receives the other's cards
    filled.update(option.card.to for option in card_choices(rules) if option.card is not None)
    return filled | row_filled(rules)


def _unreachable_choices(rules: RulesData, mechanic_fills: frozenset[str] = frozenset()) -> Iterator[tuple[PathKey, str, str]]:
    """A card choice from a zone that never holds a card: no position ever offers it (``mechanic_fills``: the zones
    the named mechanics declare they put cards into)."""
    filled = _zones_filled(rules) | mechanic_fills
    for i, step in enumerate(rules.turn):
        for j, option in enumerate(step.options):
            if option.card is not None and option.card.from_ in rules.zones and option.card.from_ not in filled:
                yield (
                    ("rules", "turn", i, "options", j, "card", "from"),
                    f"option {option.id!r} chooses a card from {option.card.from_!r}, and no setup step, option or effect ever puts a card there, so no position offers it",
                    "CG180",
                )


def rules_reads(spec: Spec, rules: RulesData) -> Reads:
    """Everything the expressions and scoring of ``rules`` read (expressions that do not parse are skipped)."""
    names = names_of(spec, rules)
    reads = Reads()
    for path, source, card in [*all_expressions(rules), *target_expressions(rules)]:
        try:
            reads.merge(parse_expression(source, names, card=card, target=binds_target(rules, path))[1])
        except ExpressionError:
            continue
    for score in rules.scoring:
        if isinstance(score, OneOfEachScore) and score.one_of_each.field in names.fields:
            reads.fields.add(score.one_of_each.field)
        elif isinstance(score, SumScore):
            reads.fields.add(score.sum.field)
        elif isinstance(score, AllOrNothingScore):
            reads.fields.add(score.all_or_nothing.field)
        elif isinstance(score, SetsScore):
            reads.fields.update(sets_fields(score))
        elif isinstance(score, MajorityScore):
            reads.fields.update(majority_fields(score))
    if rules.tricks is not None:
        reads.fields.update({rules.tricks.follow, rules.tricks.rank})
    reads.fields.update(variable.values for variable in rules.variables.values() if variable.values is not None)
    reads.merge(row_reads(rules, names, list(all_effects(rules))))
    return reads


def condition_uses(spec: Spec, rules: RulesData) -> Iterator[tuple[PathKey, str, str]]:
    """(path, mechanic, condition) of every ``mechanic(NAME, CONDITION)`` in the expressions of ``rules``."""
    names = names_of(spec, rules)
    for path, source, card in [*all_expressions(rules), *target_expressions(rules)]:
        try:
            reads = parse_expression(source, names, card=card, target=binds_target(rules, path))[1]
        except ExpressionError:
            continue
        for name, condition in sorted(reads.conditions):
            yield path, name, condition


def card_choices(rules: RulesData) -> list[Option]:
    """Every option that chooses a card."""
    return [option for step in rules.turn for option in step.options if option.card is not None]


def derived_contract(spec: Spec, rules: RulesData) -> RulesContract:
    """What the rules data reads from the rest of the spec, as a contract the validator checks like any other."""
    reads = rules_reads(spec, rules)
    in_play = decks_in_play(rules)
    decks: dict[str, DeckRule] = {}
    for deck in spec.decks:
        if deck.id not in in_play:
            continue
        fields: dict[str, FieldType | tuple[FieldType, ...]] = {
            name: definition.type for name, definition in deck.fields.items() if name in reads.fields
        }
        art = frozenset(name for name in deck.fields if name not in reads.fields)
        types = frozenset(t.id for t in deck.card_types) if deck.card_types else None
        # A card effect the rules data does not define is refused once, as CG175 with its own hint (_effect_problems):
        # the derived contract lists the cards' effects too, so the generic contract check does not report it again.
        carried = frozenset(card.effect for card in deck.cards if card.effect is not None)
        decks[deck.id] = DeckRule(fields=fields, art_fields=art, effects=frozenset(rules.effects) | carried, card_types=types, open_types=True)
    deal = {entry.split(".", 1)[1]: (0, 10_000) for entry in reads.setup if entry.startswith("deal.")}
    display = {entry.split(".", 1)[1]: (0, 10_000) for entry in reads.setup if entry.startswith("display.")}
    pieces = frozenset(entry.split(".", 1)[1] for entry in reads.setup if entry.startswith("pieces."))
    numbers = {name: NumberRule(NUMBER_RANGE[0], NUMBER_RANGE[1], "read by the rules data") for name in reads.numbers}
    # Dice a roll names are read (any count and sides the spec's model allows); dice no roll names are unread (CG172).
    # A roll naming dice the spec lacks is reported at the roll (CG175), not again here.
    defined = {die.id for die in spec.dice}
    dice = {die: DiceRule(count=(1, 10), sides=(2, 100)) for die in dice_rolled(rules, list(all_effects(rules))) if die in defined}
    options = {
        name: OptionRule(tuple(option.choices), option.default, (option.meaning or option.name or {}).get("en", name))
        for name, option in rules.options.items()
        if option.default in option.choices
    }
    components = {c.id: ComponentRule(per_player=c.per_player, min_count=1, max_count=MAX_RULES_COUNT) for c in spec.components if c.id in reads.components}
    return RulesContract(
        players=(1, MAX_PLAYERS),
        numbers=numbers,
        options=options,
        dice=dice,
        components=components,
        decks=decks,
        setup=SetupRule(deal=deal, display=display, pieces=pieces),
    )
