"""The spec's names and expressions as words, in one locale: the vocabulary of the generated rules.

:class:`Phrasebook` holds the catalog's translations and the spec's names (zones,
counters, variables, card fields and decks in the locale, falling back to ids);
:class:`ExpressionText` renders a checked expression of the rules data
(:mod:`cardgen.spec.rules_expr`) as a clause or a noun phrase, generically over
its tree: a construct with no phrase falls back to its formula.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, Sequence

from babel.lists import format_list
from babel.numbers import format_decimal
from pydantic import BaseModel

from cardgen.rulebook.rules_phrases import (
    EITHER,
    TOP_IS,
    TOP_IS_NOT,
    LARGER_OF,
    SETS_OF,
    SMALLER_OF,
    ARITHMETIC,
    CARD_FIELD,
    CARD_IS,
    CARD_IS_NOT,
    CARD_NOT_OF_TYPE,
    CARD_OF_TYPE,
    COMPARISONS,
    COUNT_OF,
    DEALT,
    DISPLAYED,
    EMPTY,
    FORMULA,
    GROUP,
    HAVE,
    HOLDS,
    IS_AMONG,
    IS_NONE_OF,
    IS_NOT_AMONG,
    IS_ONE_OF,
    MINUS,
    MIRRORED,
    OPPOSITE,
    NOT_EMPTY,
    NOT_HOLDS,
    NOT_SO,
    OWNER_PHRASES,
    PLAYERS,
    SEAT,
    THIS_TURN,
    TOP_FIELD,
    TOTAL_OF,
    MATCHING_OF,
    MATCHING_NONE,
    MATCHING_SOME,
    DISTINCT_CARDS,
    DISTINCT_OF,
    FIELD_EFFECT,
    FIELD_ID,
    FIELD_TYPE,
    TURN_NUMBER,
    ROUND_NUMBER,
    ROUND_TURN,
    TARGET,
    ACTIVE,
    OPTION_IS,
    OPTION_IS_NOT,
    TARGET_IS_YOU,
    TARGET_NOT_YOU,
    WITH_PLAYERS,
    WITH_PLAYER_RANGE,
)
from cardgen.rulebook.rule_options import always, fold_options
from cardgen.rulebook.rules_rows_text import in_pile, pile_clause, pile_term, piles_exist
from cardgen.spec.models import Card, Spec
from cardgen.spec.rules_check import decks_in_play, names_of
from cardgen.spec.rules_data import RulesData
from cardgen.spec.rules_expr import FUNCTIONS, ExpressionError, parse_expression


@dataclass(frozen=True)
class Named:
    """Something the rules name: its name in the locale and its gender there (None: unmarked)."""

    name: str
    gender: str | None
    per_seat: bool = False


def kind_of(item: object) -> str:
    """The kind of a setup step, effect or scoring item: a bare word (``reverse``) or its model's first key (``move``)."""
    if isinstance(item, str):
        return item
    if isinstance(item, BaseModel):
        field_name, info = next(iter(type(item).model_fields.items()))
        return info.alias or field_name
    return type(item).__name__


def compact(item: object) -> str:
    """A setup step, effect or scoring item written as its data, for the fallback sentence."""
    if isinstance(item, BaseModel):
        data: Any = item.model_dump(by_alias=True, exclude_defaults=True, mode="json")
        if isinstance(data, dict) and len(data) == 1:
            data = next(iter(data.values()))
        return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    return str(item)


def sentence(text: str) -> str:
    """``text`` with its first letter in capitals."""
    return text[:1].upper() + text[1:]


class NotConstant(Exception):
    """An expression that reads the position, so it has no value before play."""


class Phrasebook:
    """The rulebook catalog's phrases in one locale, with the spec's names."""

    pile_context = False
    """Whether an expression being said reads a pile in question (rows of piles are then said as "the pile of ...")."""
    pile_row: str | None = None
    """The row whose pile ``piles(ROW, ...)`` is saying, whose own cards are "the pile"."""

    def __init__(self, spec: Spec, rules: RulesData, locale: str, translation: Any) -> None:
        self.spec, self.rules, self.locale, self.translation = spec, rules, locale, translation
        self.fallback = spec.locales[0] if spec.locales else "en"
        self.names = names_of(spec, rules)
        self.in_play = decks_in_play(rules)
        self.fields: dict[str, Any] = {}
        for deck in spec.decks:
            if deck.id in self.in_play:
                for name, definition in deck.fields.items():
                    self.fields.setdefault(name, definition)
        self.cards: list[Card] = [card for deck in spec.decks if deck.id in self.in_play for card in deck.cards]
        self.chosen_options: dict[str, str] = {name: str(spec.options.get(name, option.default)) for name, option in rules.options.items()}
        """Each rule option's choice in this spec (the generated rules read as that choice plays)."""

    # -- phrases -------------------------------------------------------------------------------------

    def say(self, message: str, **values: object) -> str:
        """The message translated, its placeholders filled in."""
        return str(self.translation.gettext(message)) % values

    def say_gendered(self, gender: str | None, message: str, **values: object) -> str:
        """A message that agrees with a name's gender (the unmarked message when the name has none here)."""
        text = self.translation.pgettext(gender, message) if gender else self.translation.gettext(message)
        return str(text) % values

    def say_count(self, forms: tuple[str, str], count: int, **values: object) -> str:
        """A message with plural forms, chosen by ``count`` (``%(num)s`` is the count, formatted)."""
        return str(self.translation.ngettext(forms[0], forms[1], count)) % {"num": self.number(count), **values}

    def number(self, value: int) -> str:
        """A whole number formatted for the locale."""
        return format_decimal(value, locale=self.locale)

    def local(self, text: Mapping[str, str] | None, default: str) -> str:
        """A name in this locale (the spec's first locale when it lacks this one; ``default`` when there is none)."""
        if not text:
            return default
        return text.get(self.locale) or text.get(self.fallback) or default

    def listing(self, items: Sequence[str], style: Literal["standard", "or"] = "standard") -> str:
        """Items as a list in the locale ("a, b and c"; style ``or``: "a, b or c")."""
        return format_list(list(items), style=style, locale=self.locale) if items else ""

    # -- the spec's names ----------------------------------------------------------------------------

    @staticmethod
    def _readable(identifier: str) -> str:
        return identifier.replace("_", " ").replace("-", " ")

    def zone(self, zone_id: str) -> Named:
        zone = self.rules.zones.get(zone_id)
        if zone is None:
            return Named(self._readable(zone_id), None)
        return Named(self.local(zone.name, self._readable(zone_id)), zone.gender.get(self.locale), zone.per_seat)

    def counter(self, counter_id: str) -> Named:
        counter = self.rules.counters.get(counter_id)
        if counter is None:
            return Named(self._readable(counter_id), None)
        name = self.local(counter.name, self._readable(counter_id))
        if counter.reset == "turn":
            said = self.say(THIS_TURN, name=name)
            marker = self.say(THIS_TURN, name="").strip()  # "this turn": a name that says it already keeps its own words
            name = name if marker and name.rstrip().endswith(marker) else said
        return Named(name, counter.gender.get(self.locale), counter.per_seat)

    def variable(self, variable_id: str) -> Named:
        variable = self.rules.variables.get(variable_id)
        if variable is None:
            return Named(self._readable(variable_id), None)
        return Named(self.local(variable.name, self._readable(variable_id)), variable.gender.get(self.locale))

    def flag(self, variable_id: str, raised: bool) -> str | None:
        """The clause a yes-or-no variable's declaration gives for its value 1 (``raised``) or 0, None when it declares none."""
        variable = self.rules.variables.get(variable_id)
        if variable is None or variable.flag is None:
            return None
        return self.local(variable.flag.raised if raised else variable.flag.lowered, variable_id)

    def field(self, field_id: str) -> Named:
        definition = self.fields.get(field_id)
        if definition is None:
            builtin = {"type": FIELD_TYPE, "effect": FIELD_EFFECT, "id": FIELD_ID}.get(field_id)
            if builtin is not None:  # every card's own fields: named in the phrasebook, masculine in Portuguese
                return Named(self.say(builtin), "masculine" if self.locale == "pt_BR" else None)
            return Named(self._readable(field_id), None)
        return Named(self.local(definition.name, self._readable(field_id)), definition.gender.get(self.locale))

    def deck_name(self, deck_id: str) -> str:
        deck = next((d for d in self.spec.decks if d.id == deck_id), None)
        return self.local(deck.name, deck_id) if deck is not None else deck_id

    def owned(self, named: Named, owner: str) -> str:
        """A named thing as a noun phrase: the table's for a shared one, else ``owner``'s (me, each, next...)."""
        return self.say_gendered(named.gender, OWNER_PHRASES[owner if named.per_seat else "table"], name=named.name)

    def zone_phrase(self, zone_id: str, owner: str = "me") -> str:
        pile = in_pile(self, zone_id)  # a row of piles inside a pile's condition: the pile in question's
        if pile is not None:
            return pile
        return self.owned(self.zone(zone_id), owner)

    def value_label(self, field_id: str | None, value: object) -> str:
        """A constant compared with a card field, in words: a palette entry's name, a card type's, a card's."""
        if field_id == "type":
            for deck in self.spec.decks:
                for card_type in deck.card_types:
                    if card_type.id == value:
                        return self.local(card_type.name, str(value))
        if field_id == "effect" and isinstance(value, str):
            carriers = self.carriers(value)  # an effect by the cards that carry it
            if carriers:
                return carriers
        if field_id == "id":
            card = next((c for c in self.cards if c.id == value), None)
            if card is not None:
                return self.local(card.name, str(value))
        definition = self.fields.get(field_id or "")
        if definition is not None and definition.palette:
            palette = next((p for p in self.spec.palettes if p.id == definition.palette), None)
            entry = next((e for e in palette.entries if e.id == value), None) if palette else None
            if entry is not None:
                return self.local(entry.name, str(value))
        if isinstance(value, int) and not isinstance(value, bool):
            return self.number(value)
        return self.say(FORMULA, formula=value)

    def values_of(self, field_id: str) -> list[str]:
        """The values a field takes over the cards in play, in card order, in words."""
        seen: list[object] = []
        for card in self.cards:
            value = {"id": card.id, "type": card.type, "effect": card.effect, **card.data}.get(field_id)
            if value is not None and value not in seen:
                seen.append(value)
        return [self.value_label(field_id, value) for value in seen]

    def carrier_type(self, effect_id: str) -> str | None:
        """The card type whose cards are exactly the cards carrying an effect (None: no such type)."""
        carrying = [card for card in self.cards if card.effect == effect_id]
        types = {card.type for card in carrying}
        if len(types) != 1 or None in types:
            return None
        (type_id,) = types
        known = any(t.id == type_id for deck in self.spec.decks for t in deck.card_types)
        exact = all(card.effect == effect_id for card in self.cards if card.type == type_id)
        return type_id if known and exact else None

    def carriers(self, effect_id: str) -> str:
        """The cards carrying an effect: their card type's name when they are exactly that type's cards, else their names."""
        type_id = self.carrier_type(effect_id)
        if type_id is not None:
            return self.value_label("type", type_id)
        return self.listing([self.local(card.name, card.id) for card in self.cards if card.effect == effect_id], "or")

    # -- amounts known before play ------------------------------------------------------------------

    def player_counts(self) -> list[int]:
        return sorted(entry.players for entry in self.spec.setups)

    def constant(self, node: ast.expr, players: int | None) -> int:
        """The value of an expression that reads only numbers, setup entries and the player count (``players``: None when unknown)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Attribute):
            base = node.value
            if isinstance(base, ast.Name) and base.id == "numbers" and node.attr in self.spec.numbers:
                return self.spec.numbers[node.attr]
            if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "setup" and players is not None:
                entry = next((s for s in self.spec.setups if s.players == players), None)
                table = getattr(entry, base.attr, None) if entry is not None else None
                if isinstance(table, dict):
                    value = table.get(node.attr, 0)
                    if isinstance(value, int):
                        return value
        if isinstance(node, ast.Name) and node.id == "players" and players is not None:
            return players
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.constant(node.operand, players)
        if isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC:
            left, right = self.constant(node.left, players), self.constant(node.right, players)
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            if isinstance(node.op, ast.Mult):
                return left * right
            if right == 0:
                raise NotConstant
            return left // right if isinstance(node.op, ast.FloorDiv) else left % right
        raise NotConstant

    def by_players(self, node: ast.expr) -> dict[int, int] | None:
        """The value of ``node`` at every player count of the setup table; None when it reads the position."""
        try:
            return {players: self.constant(node, players) for players in self.player_counts()}
        except NotConstant:
            return None

    def counted(self, values: Mapping[int, int], forms: tuple[str, str]) -> str:
        """``forms`` for one value, or each value with the player counts it holds for ("7 cards with 2 players and 5 cards with 3 to 5 players")."""
        return self.by_player_counts({players: self.say_count(forms, value) for players, value in values.items()})

    def by_player_counts(self, values: Mapping[int, str]) -> str:
        """One phrase when every player count has the same, else each phrase with the player counts it holds for, in runs."""
        distinct = sorted(set(values.values()), key=list(values.values()).index)
        if len(distinct) == 1:
            return distinct[0]
        parts: list[str] = []
        counts = sorted(values)
        run: list[int] = []
        for index, players in enumerate(counts):
            run.append(players)
            last = index == len(counts) - 1
            if last or values[counts[index + 1]] != values[players] or counts[index + 1] != players + 1:
                what = values[players]
                if len(run) == 1:
                    parts.append(self.say_count(WITH_PLAYERS, run[0], what=what))
                else:
                    parts.append(self.say(WITH_PLAYER_RANGE, what=what, low=self.number(run[0]), high=self.number(run[-1])))
                run = []
        return self.listing(parts)


FLAG_TESTS: dict[type, Callable[[int, list[Any]], bool]] = {
    ast.Eq: lambda v, c: v == c[0], ast.NotEq: lambda v, c: v != c[0], ast.Lt: lambda v, c: v < c[0], ast.LtE: lambda v, c: v <= c[0],
    ast.Gt: lambda v, c: v > c[0], ast.GtE: lambda v, c: v >= c[0], ast.In: lambda v, c: v in c, ast.NotIn: lambda v, c: v not in c,
}
"""Whether a flag's value (1 or 0) satisfies a comparison with the constants given (one, or the list after ``in``)."""


class ExpressionText:
    """A checked expression of the rules data as words: a condition as a clause, an amount as a noun phrase.

    ``owner`` says whose a per-seat zone or counter is (``me``: the seat to
    move, ``a_player``: any seat, for an end condition).
    """

    def __init__(self, book: Phrasebook, owner: str = "me") -> None:
        self.book, self.owner = book, owner

    def tree(self, source: int | str, card: bool, pile: str | None = None) -> ast.expr | None:
        """The checked expression with the spec's rule options folded in (:mod:`cardgen.rulebook.rule_options`).

        ``pile``: the row whose pile is in question (``pile.FIELD`` and the row's counters read that pile).
        """
        try:
            tree = parse_expression(source, self.book.names, card=card, target=True, pile=pile)[0]
        except ExpressionError:
            return None
        return fold_options(tree, self.book.chosen_options)

    def decided(self, source: int | str | None, *, card: bool = False) -> bool | None:
        """Whether a condition holds in every position at the chosen rule options (True), in none (False), or depends (None)."""
        if source is None:
            return None
        return always(self.tree(source, card))

    def condition(self, source: int | str, *, card: bool = False) -> str:
        node = self.tree(source, card)
        return self.clause(node) if node is not None else self.book.say(FORMULA, formula=source)

    def amount(self, source: int | str, *, card: bool = False) -> str:
        node = self.tree(source, card)
        return self.term(node) if node is not None else self.book.say(FORMULA, formula=source)

    def formula(self, node: ast.expr) -> str:
        return self.book.say(FORMULA, formula=ast.unparse(node))

    # -- clauses -------------------------------------------------------------------------------------

    def clause(self, node: ast.expr, negated: bool = False) -> str:
        b = self.book
        if isinstance(node, ast.BoolOp):
            # Said negated part by part: "not (A and B)" reads as "not A or not B", never "it is not so that A and B".
            parts = []
            for value in node.values:
                text = self.clause(value, negated)
                parts.append(b.say(GROUP, condition=text) if isinstance(value, ast.BoolOp) else text)
            return b.listing(parts, "standard" if isinstance(node.op, ast.And) != negated else "or")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.clause(node.operand, not negated)
        if isinstance(node, ast.Name):  # a yes-or-no variable read as a condition: true when it is 1
            said = b.flag(node.id, not negated)
            if said is not None:
                return said
        if isinstance(node, ast.IfExp):
            text = b.say(EITHER, then=self.clause(node.body), condition=self.clause(node.test), otherwise=self.clause(node.orelse))
            return b.say(NOT_SO, condition=text) if negated else text
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "has" and len(node.args) in (3, 4):
            field, wanted = node.args[1], node.args[2]
            if isinstance(field, ast.Name) and isinstance(wanted, ast.Constant) and isinstance(wanted.value, str):
                cards = b.carriers(wanted.value) if field.id == "effect" else b.value_label(field.id, wanted.value)
                if cards:
                    zone = b.zone_phrase(self.zone_id(node.args[0]), self.whose(node))
                    return b.say(NOT_HOLDS if negated else HOLDS, zone=zone, cards=cards)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "mechanic" and len(node.args) == 2:
            asked = self.mechanic_condition(node, negated)
            if asked is not None:
                return asked
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "holds" and len(node.args) == 2:
            card = node.args[1]
            if isinstance(card, ast.Constant) and isinstance(card.value, str):
                zone = b.zone_phrase(self.zone_id(node.args[0]), self.owner)
                return b.say(NOT_HOLDS if negated else HOLDS, zone=zone, cards=b.value_label("id", card.value))
        if isinstance(node, ast.Compare):
            if len(node.ops) == 1:
                return self.comparison(node.left, node.ops[0], node.comparators[0], negated)
            parts = []
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                parts.append(self.comparison(left, op, right, False))
                left = right
            joined = b.listing(parts)
            return b.say(NOT_SO, condition=joined) if negated else joined
        text = self.formula(node)
        return b.say(NOT_SO, condition=text) if negated else text

    def mechanic_condition(self, node: ast.Call, negated: bool = False) -> str | None:
        """``mechanic(NAME, CONDITION)`` in the mechanic's own words (its declaration's phrase), None when unknown.

        Negated, the declaration's phrase for the condition not holding, else "it is not so that" its phrase.
        """
        from cardgen.engine.mechanics import mechanic_declaration

        name, condition = (a.id if isinstance(a, ast.Name) else "" for a in node.args)
        declaration = mechanic_declaration(name)
        if declaration is None or condition not in declaration.conditions:
            return None
        if negated and condition in declaration.negations:
            return self.book.say(declaration.negations[condition])
        asked = self.book.say(declaration.conditions[condition])
        return self.book.say(NOT_SO, condition=asked) if negated else asked

    def comparison(self, left: ast.expr, op: ast.cmpop, right: ast.expr, negated: bool) -> str:
        b = self.book
        if isinstance(left, ast.Constant) and type(op) in MIRRORED:  # `1 == full`, `0 < double`
            flagged = self.flag_comparison(right, MIRRORED[type(op)](), left, negated)
        else:
            flagged = self.flag_comparison(left, op, right, negated)
        if flagged is not None:
            return flagged
        if isinstance(op, (ast.In, ast.NotIn)) and not isinstance(right, (ast.List, ast.Tuple)):  # a card's list field
            inside = isinstance(op, ast.In) != negated
            return b.say(IS_AMONG if inside else IS_NOT_AMONG, left=self.term(left), values=self.term(right))
        if isinstance(op, (ast.In, ast.NotIn)):
            assert isinstance(right, (ast.List, ast.Tuple))
            field = self.field_of(left)
            values = [b.value_label(field, e.value) for e in right.elts if isinstance(e, ast.Constant)]
            inside = isinstance(op, ast.In) != negated
            if field == "id" and isinstance(left, ast.Attribute) and isinstance(left.value, ast.Name) and left.value.id == "card":
                return b.say(CARD_IS if inside else CARD_IS_NOT, cards=b.listing(values, "or"))
            if field == "effect" and isinstance(left, ast.Attribute) and isinstance(left.value, ast.Name) and left.value.id == "card":
                carried = [b.carriers(e.value) for e in right.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                if all(carried):
                    return b.say(CARD_IS if inside else CARD_IS_NOT, cards=b.listing(carried, "or"))
            return b.say(IS_ONE_OF if inside else IS_NONE_OF, left=self.term(left), values=b.listing(values, "or"))
        kind = type(op)
        right = self.chosen(right)
        if self.is_constant(left) and not self.is_constant(right):  # 0 < count(stock): read it as count(stock) > 0
            left, right, kind = right, left, MIRRORED[kind]
        special = self.special(left, kind, right, negated)
        if special is not None:
            return special
        field = self.field_of(left) or self.field_of(right)
        phrases = COMPARISONS[kind]
        return b.say(phrases[1] if negated else phrases[0], left=self.term(left, field), right=self.term(right, field))

    def flag_comparison(self, left: ast.expr, op: ast.cmpop, right: ast.expr, negated: bool) -> str | None:
        """A yes-or-no variable compared with numbers (``full == 1``, ``double != 0``, ``double < 1``, ``full in [1]``): the
        clause of the one value, 1 or 0, for which the comparison holds; None when it is no flag, or holds for both or neither."""
        if not isinstance(left, ast.Name) or self.book.flag(left.id, True) is None:
            return None
        listed = isinstance(op, (ast.In, ast.NotIn))
        if listed != isinstance(right, (ast.List, ast.Tuple)):
            return None
        items = right.elts if isinstance(right, (ast.List, ast.Tuple)) else [right]
        values = [e.value for e in items if isinstance(e, ast.Constant) and isinstance(e.value, (int, float))]
        if len(values) != len(items):
            return None
        test = FLAG_TESTS.get(type(op))
        holds = [flag for flag in (0, 1) if test is not None and test(flag, values)]
        return self.book.flag(left.id, (holds[0] == 1) != negated) if len(holds) == 1 else None

    def chosen(self, node: ast.expr) -> ast.expr:
        """A rule option read as a value (``card.effect == options.sculptors``): the spec's choice, as a constant."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "options":
            option = self.book.rules.options.get(node.attr)
            if option is not None:
                return ast.Constant(str(self.book.spec.options.get(node.attr, option.default)))
        return node

    def special(self, left: ast.expr, kind: type, right: ast.expr, negated: bool) -> str | None:
        """The readable forms of common comparisons: an empty zone, a card's effect or type, the seat's counter."""
        b = self.book
        value = self.known(right)
        names = {n.id for n in (left, right) if isinstance(n, ast.Name)}
        if names == {"target", "seat"} and kind in (ast.Eq, ast.NotEq):
            return b.say(TARGET_IS_YOU if (kind is ast.Eq) != negated else TARGET_NOT_YOU)
        if (
            isinstance(left, ast.Attribute) and isinstance(left.value, ast.Name) and left.value.id == "options"
            and isinstance(right, ast.Constant) and isinstance(right.value, str) and kind in (ast.Eq, ast.NotEq)
        ):
            option = b.rules.options.get(left.attr)
            name = b.local(option.name, left.attr) if option is not None else left.attr
            return b.say(OPTION_IS if (kind is ast.Eq) != negated else OPTION_IS_NOT, option=name, choice=right.value)
        if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "count" and value is not None:
            empty = (kind is ast.Eq and value == 0) or (kind is ast.LtE and value == 0) or (kind is ast.Lt and value == 1)
            filled = (kind in (ast.Gt, ast.NotEq) and value == 0) or (kind is ast.GtE and value == 1)
            if empty or filled:
                zone_id = self.zone_id(left.args[0])
                in_pile = pile_clause(self, zone_id, empty, negated)
                if in_pile is not None:
                    return in_pile
                named = b.zone(zone_id)
                return b.say_gendered(named.gender, NOT_EMPTY if empty == negated else EMPTY, zone=b.owned(named, self.whose(left)))
        if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id in ("piles", "matching") and value is not None:
            some = (kind in (ast.Gt, ast.NotEq) and value == 0) or (kind is ast.GtE and value == 1)
            none = (kind is ast.Eq and value == 0) or (kind is ast.LtE and value == 0) or (kind is ast.Lt and value == 1)
            if some or none:
                exists = some != negated
                said = piles_exist(self, left, exists)
                if said is not None:
                    return said
                if left.func.id == "matching" and len(left.args) in (3, 4) and isinstance(left.args[1], ast.Name):
                    field = left.args[1].id
                    zone = b.zone_phrase(self.zone_id(left.args[0]), self.whose(left))
                    return b.say(MATCHING_SOME if exists else MATCHING_NONE, zone=zone, field=b.field(field).name, value=self.term(left.args[2], field))
        if (
            isinstance(left, ast.Attribute) and isinstance(left.value, ast.Name) and left.value.id == "card"
            and left.attr in ("effect", "type", "id") and kind in (ast.Eq, ast.NotEq)
            and isinstance(right, ast.Constant) and isinstance(right.value, str)
        ):
            equal = (kind is ast.Eq) != negated
            type_id = right.value if left.attr == "type" else b.carrier_type(right.value) if left.attr == "effect" else None
            if type_id is not None:
                return b.say(CARD_OF_TYPE if equal else CARD_NOT_OF_TYPE, type=b.value_label("type", type_id))
            cards = b.carriers(right.value) if left.attr == "effect" else b.value_label("id", right.value)
            if cards:
                return b.say(CARD_IS if equal else CARD_IS_NOT, cards=cards)
        if (
            isinstance(left, ast.Attribute) and isinstance(left.value, ast.Call) and isinstance(left.value.func, ast.Name)
            and left.value.func.id == "top" and left.attr in ("effect", "id") and kind in (ast.Eq, ast.NotEq)
            and isinstance(right, ast.Constant) and isinstance(right.value, str)
        ):
            cards = b.carriers(right.value) if left.attr == "effect" else b.value_label("id", right.value)
            if cards:
                zone = b.zone_phrase(self.zone_id(left.value.args[0]), self.whose(left.value))
                return b.say(TOP_IS if (kind is ast.Eq) != negated else TOP_IS_NOT, zone=zone, cards=cards)
        if (
            self.owner == "me" and isinstance(left, ast.Name) and left.id in b.rules.counters
            and b.rules.counters[left.id].per_seat and not self.reads_position(right)
        ):
            return b.say(HAVE[OPPOSITE[kind] if negated else kind], amount=self.term(right), counter=b.counter(left.id).name)
        return None

    # -- terms ---------------------------------------------------------------------------------------

    def whose(self, call: ast.Call) -> str:
        """Whose per-seat zone or counter a function reads: the chosen player's when its seat argument is ``target``."""
        name = call.func.id if isinstance(call.func, ast.Name) else ""
        own = 1 if name == "counter" else FUNCTIONS.get(name, len(call.args))
        seat = call.args[own] if len(call.args) > own else None
        if isinstance(seat, ast.Name) and seat.id in ("target", "active"):
            return seat.id
        return self.owner

    def zone_id(self, node: ast.expr) -> str:
        return node.id if isinstance(node, ast.Name) else ast.unparse(node)

    def is_constant(self, node: ast.expr) -> bool:
        return not self.reads_position(node)

    def reads_position(self, node: ast.expr) -> bool:
        """Whether ``node`` reads anything of the position (a zone, counter, variable, card, seat or turn)."""
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id not in ("numbers", "setup", "players", "true", "false", "True", "False"):
                return True
            if isinstance(sub, ast.Call):
                return True
        return False

    def known(self, node: ast.expr) -> int | None:
        """The value of a constant amount, when it is the same at every player count."""
        values = self.book.by_players(node)
        if values is None or len(set(values.values())) != 1:
            return None
        return next(iter(values.values()))

    def field_of(self, node: ast.expr) -> str | None:
        """The card field a term stands for (``card.suit``, ``top(discard).suit``, a variable over suits)."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, (ast.Name, ast.Call)):
            if isinstance(node.value, ast.Name) and node.value.id != "card":
                return None
            return node.attr
        if isinstance(node, ast.Name) and node.id in self.book.rules.variables:
            return self.book.rules.variables[node.id].values
        return None

    def term(self, node: ast.expr, field: str | None = None) -> str:
        """An amount or value as a noun phrase (``field``: the card field it is compared with, to name a constant)."""
        b = self.book
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return b.value_label(field, node.value)
            if isinstance(node.value, int) and not isinstance(node.value, bool):
                return b.value_label(field, node.value) if field else b.number(node.value)
            return self.formula(node)
        value = self.known(node)
        if value is not None:
            return b.number(value)
        if isinstance(node, ast.Name):
            if node.id in b.rules.counters:
                return b.owned(b.counter(node.id), self.owner)
            if node.id in b.rules.variables:
                return b.owned(b.variable(node.id), "table")
            if node.id == "players":
                return b.say(PLAYERS)
            if node.id == "seat":
                return b.say(SEAT)
            if node.id == "turn":
                return b.say(TURN_NUMBER)
            if node.id == "round":
                return b.say(ROUND_NUMBER)
            if node.id == "round_turn":
                return b.say(ROUND_TURN)
            if node.id == "target":
                return b.say(TARGET)
            if node.id == "active":
                return b.say(ACTIVE)
            return self.formula(node)
        in_pile = pile_term(self, node)
        if in_pile is not None:
            return in_pile
        if isinstance(node, ast.Attribute):
            base = node.value
            if isinstance(base, ast.Name) and base.id == "card":
                named = b.field(node.attr)
                return b.say_gendered(named.gender, CARD_FIELD, name=named.name)
            if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "top":
                named = b.field(node.attr)
                return b.say_gendered(named.gender, TOP_FIELD, name=named.name, zone=b.zone_phrase(self.zone_id(base.args[0]), self.whose(base)))
            if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "setup":
                return b.say(DEALT if base.attr == "deal" else DISPLAYED, deck=b.deck_name(node.attr))
            return self.formula(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "counter" and isinstance(node.args[0], ast.Name):
            return b.owned(b.counter(node.args[0].id), self.whose(node))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max") and len(node.args) == 2:
            return b.say(SMALLER_OF if node.func.id == "min" else LARGER_OF, left=self.term(node.args[0]), right=self.term(node.args[1]))
        if isinstance(node, ast.IfExp):
            return b.say(EITHER, then=self.term(node.body), condition=self.clause(node.test), otherwise=self.term(node.orelse))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            zone = b.zone_phrase(self.zone_id(node.args[0]), self.whose(node))
            if node.func.id == "count":
                return b.say(COUNT_OF, zone=zone)
            if node.func.id == "total" and len(node.args) in (2, 3) and isinstance(node.args[1], ast.Name):
                return b.say(TOTAL_OF, field=b.field(node.args[1].id).name, zone=zone)
            if node.func.id == "matching" and len(node.args) in (3, 4) and isinstance(node.args[1], ast.Name):
                field = node.args[1].id
                return b.say(MATCHING_OF, field=b.field(field).name, zone=zone, value=self.term(node.args[2], field))
            if node.func.id == "distinct" and len(node.args) in (2, 3) and isinstance(node.args[1], ast.Name):
                if node.args[1].id == "id":
                    return b.say(DISTINCT_CARDS, zone=zone)
                return b.say(DISTINCT_OF, field=b.field(node.args[1].id).name, zone=zone)
            if node.func.id == "sets" and len(node.args) in (3, 4) and isinstance(node.args[1], ast.Name) and isinstance(node.args[2], ast.Constant):
                return b.say(SETS_OF, value=b.value_label(node.args[1].id, node.args[2].value), zone=zone)
            return self.formula(node)
        if isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC:
            return b.say(ARITHMETIC[type(node.op)], left=self.term(node.left), right=self.term(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return b.say(MINUS, amount=self.term(node.operand))
        return self.formula(node)
