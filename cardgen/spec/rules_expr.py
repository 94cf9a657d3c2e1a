"""The expression language of rules data: conditions and amounts, checked against the spec's names.

An expression is a Python-like formula, parsed with :mod:`ast` and accepted only
when every construct and every name in it belongs to this small language:

* numbers (``3``), strings (``'hearts'``), ``true``/``false`` (or ``True``/``False``);
* ``and``, ``or``, ``not``; ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``; ``in`` / ``not in`` a list of constants
  (``card.rank in [1, 13]``); ``+``, ``-``, ``*``, ``//``, ``%``;
* ``component.ID.count`` (a component's ``count`` as written: markers each player owns), ``numbers.NAME`` (a number of the spec), ``setup.deal.DECK``, ``setup.display.DECK`` and
  ``setup.pieces.COMPONENT`` (the setup table's value for the player count: chips each player starts with);
* a counter's name (the value of the seat in question, or the table's for a shared counter), a
  variable's name, ``players`` (the player count), ``seat`` (the seat in question, from 0: the seat
  deciding), ``active`` (the seat whose turn it is: another seat than ``seat`` only in a reaction),
  ``turn`` (turns begun, from 1); with ``rounds``, ``round`` (rounds begun, from 1) and ``round_turn`` (the turn's
  place in its round, 1 for the round's first player); ``options.NAME`` (the choice the spec makes of a rule option, a text);
* ``count(ZONE)`` (cards in a zone; the seat's own for a per-seat zone), ``total(ZONE, FIELD)`` (the
  sum of a card field over a zone), ``top(ZONE).FIELD`` (a field of a zone's top card; an empty zone's
  top has no value, equal to nothing and ordered before nothing);
* ``holds(ZONE, 'CARD-ID')`` (whether the zone, the seat's own for a per-seat zone, holds a copy of
  that card; the id must be a card of the decks in play);
* ``distinct(ZONE, FIELD)`` (how many different values of a card field the zone's cards show; cards
  without a value add none), so ``distinct(row, colour) < count(row)`` holds when two cards of a row
  share a colour (a bust); ``has(ZONE, FIELD, VALUE)`` (whether some card in the zone has that value,
  an expression: ``has(area, colour, card.colour)``, ``has(hand, type, 'joker')``); ``matching(ZONE, FIELD, VALUE)``
  (how many cards in the zone have that value: ``matching(collection, set, card.set)``); ``sets(ZONE, FIELD, VALUE)``
  (complete sets in the zone: the designs whose field has that value each make one card of a set, so it is the
  copies of the scarcest of them there; 0 when no design has the value): ``sets(area, type, 'construction')``;
* ``min(A, B)`` and ``max(A, B)`` of two whole numbers; ``A if CONDITION else B`` (the value of A when the
  condition holds, else B's: ``doubled if options.mausolo == 'on_play' else 0``);
* ``card.FIELD`` in a card choice's ``where`` (the card that may be chosen); a card's ``id``, ``type``
  and ``effect`` are fields too;
* ``target`` (the seat an option aims at, from 0) in an option's ``target.where`` and the amounts of
  its effects, and in the steps that follow such an option in the turn; every zone function takes the seat whose per-seat zone it reads as one more, last
  argument (``count(hand, target)``, ``total(won, points, target)``, ``top(pile, target).rank``), and
  ``counter(NAME, SEAT)`` reads another seat's per-seat counter; a seat argument is ``target``, ``seat`` or ``active``;
* ``mechanic(NAME, CONDITION)``: a condition of a named mechanic listed under ``rules.mechanics`` (a question the
  vocabulary cannot ask, such as "could anyone still add a tile to the Mural"), about the seat in question and, in
  a card choice's ``where``, the card; true or false. Whether the mechanic declares the condition is checked with
  the rest of its uses (the spec layer does not know the registry).

Nothing else parses (no attribute of anything else, no calls but those, no
assignment), so an expression can only read the game. The interpreter compiles
the checked tree (:mod:`cardgen.engine.interpreter.compile`); this module only
checks it and says what it reads, for the validator and the derived contract.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Mapping

from cardgen.limits import MAX_EXPRESSION_DEPTH, over

BUILTIN_NAMES = frozenset({"players", "seat", "turn", "active"})
ROUND_NAMES = frozenset({"round", "round_turn"})
"""Names known only when the rules data plays in ``rounds``."""
CARD_ATTRIBUTES = frozenset({"id", "type", "effect"})
SETUP_PARTS = ("deal", "display", "pieces")
"""The parts of a setup an expression may read, as ``setup.PART.ID``."""
FUNCTIONS = {"count": 1, "total": 2, "top": 1, "holds": 2, "distinct": 2, "has": 3, "matching": 3, "sets": 3}
"""Each function of the rules and how many arguments it takes."""
FIELD_FUNCTIONS = frozenset({"total", "distinct", "has", "matching", "sets"})
NUMBER_FUNCTIONS = frozenset({"min", "max"})
"""Functions of two whole numbers: ``min(a, b)``, ``max(a, b)``."""
"""The functions whose second argument names a card field."""
SEAT_NAMES = frozenset({"target", "seat", "active"})
"""What a seat argument (``count(hand, target)``, ``counter(chips, target)``) may be."""
_BOOL_OPS = (ast.And, ast.Or)
_COMPARE_OPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn)
_BIN_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)

NUMBER, TEXT, OTHER, MIXED, ANY = "number", "text", "other", "mixed", "any"
"""The kinds of value an expression gives: a whole number (or true/false), a text, something else (a list, a
localised text), a mix of kinds (``a or b`` of two kinds), or not known. Arithmetic takes numbers, and ordering
(``<``) compares numbers with numbers or texts with texts, so no expression that checks can fail in play."""
_FIELD_KINDS = {"int": NUMBER, "bool": NUMBER, "text": TEXT, "palette": TEXT, "id": TEXT}
"""The kind of each card field type (every other type is a list or a localised text: :data:`OTHER`)."""


def field_kind(field_type: str) -> str:
    """The kind of value a card field of ``field_type`` holds."""
    return _FIELD_KINDS.get(field_type, OTHER)


class ExpressionError(ValueError):
    """An expression that is not in the language, or names something the spec does not have."""


@dataclass(frozen=True)
class Names:
    """The names an expression may use, taken from the spec and its rules data."""

    zones: Mapping[str, bool]
    """Zone name -> whether it is per seat."""
    counters: Mapping[str, bool]
    """Counter name -> whether it is per seat."""
    variables: frozenset[str]
    fields: frozenset[str]
    """Card fields of the decks in play (``id``, ``type`` and ``effect`` included)."""
    numbers: frozenset[str]
    setup: frozenset[str]
    """Setup entries as ``deal.DECK`` / ``display.DECK`` / ``pieces.COMPONENT``."""
    card_ids: frozenset[str] = frozenset()
    """The ids of the cards in play, for ``holds(ZONE, 'CARD-ID')``."""
    field_kinds: Mapping[str, str] = field(default_factory=dict)
    """Card field -> the kind of its values (:data:`NUMBER`, :data:`TEXT`...); a field not named here is :data:`ANY`."""
    variable_kinds: Mapping[str, str] = field(default_factory=dict)
    """Variable -> the kind of its values (that of its ``values`` field)."""
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Rule option -> its choices, for ``options.NAME``."""
    list_kinds: Mapping[str, str] = field(default_factory=dict)
    """List card field -> the kind of its elements (``int_list``: numbers, ``palette_list``: texts), for ``X in card.FIELD``."""
    rows: Mapping[str, str] = field(default_factory=dict)
    """Row of piles (a zone with ``under``) -> the deck whose cards its piles lie under, for ``piles(ROW, CONDITION)`` and ``pile.FIELD``."""
    components: frozenset[str] = frozenset()
    """The ids of the spec's components, for ``component.ID.count``."""
    pile_counters: Mapping[str, str] = field(default_factory=dict)
    """Counter kept per pile (``per_pile``) -> its row of piles: read only as the pile in question's."""
    mechanics: frozenset[str] = frozenset()
    """The named mechanics listed under ``rules.mechanics``, for ``mechanic(NAME, CONDITION)``."""
    rounds: bool = False
    """Whether the rules data plays in ``rounds`` (so ``round`` and ``round_turn`` are known)."""


@dataclass
class Reads:
    """What an expression (or all of a spec's expressions) reads."""

    numbers: set[str] = field(default_factory=set)
    setup: set[str] = field(default_factory=set)
    fields: set[str] = field(default_factory=set)
    zones: set[str] = field(default_factory=set)
    counters: set[str] = field(default_factory=set)
    variables: set[str] = field(default_factory=set)
    options: set[str] = field(default_factory=set)
    components: set[str] = field(default_factory=set)
    conditions: set[tuple[str, str]] = field(default_factory=set)
    """(mechanic, condition) of every ``mechanic(NAME, CONDITION)``."""

    def merge(self, other: "Reads") -> None:
        """Add everything ``other`` reads."""
        for name in ("numbers", "setup", "fields", "zones", "counters", "variables", "options", "components", "conditions"):
            getattr(self, name).update(getattr(other, name))


def parse_expression(source: int | str, names: Names, *, card: bool = False, target: bool = False, pile: str | None = None) -> tuple[ast.expr, Reads]:
    """The checked tree of ``source`` and what it reads; ``card``: whether ``card`` is bound, ``target``: whether ``target`` is,
    ``pile``: the row of piles whose pile in question ``pile`` names (a move's pile choice).

    Raises :class:`ExpressionError` with a one-line reason.
    """
    tree, reads, _ = check_expression(source, names, card=card, target=target, pile=pile)
    return tree, reads


def check_expression(
    source: int | str, names: Names, *, card: bool = False, target: bool = False, pile: str | None = None
) -> tuple[ast.expr, Reads, str]:
    """As :func:`parse_expression`, with the kind of value the expression gives (:data:`NUMBER`, :data:`TEXT`...)."""
    if isinstance(source, bool) or not isinstance(source, (int, str)):
        raise ExpressionError(f"expected a number or an expression, got {type(source).__name__}")
    if isinstance(source, int):
        return ast.Constant(source), Reads(), NUMBER
    body = read_tree(source)
    reads = Reads()
    checker = _Checker(names, card, reads, source)
    checker.target = target
    checker.pile = pile
    kind = checker.visit_node(body)
    return body, reads, kind


MAX_EXPRESSION_LENGTH = 500
"""The longest expression text read, in characters (longer ones are refused before Python's parser sees them)."""


def read_tree(source: str) -> ast.expr:
    """The syntax tree of an expression's text, unchecked, read within the same bounds as :func:`check_expression`
    (not empty, at most :data:`MAX_EXPRESSION_LENGTH` characters, parsed without a recursion or memory error).

    Every reader of rules-data expressions outside the checker (the static fold, the literal check) goes through
    here, so no text refused by the checker reaches Python's parser. Raises :class:`ExpressionError`.
    """
    text = source.strip()
    if not text:
        raise ExpressionError("the expression is empty")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ExpressionError(f"the expression is longer than {MAX_EXPRESSION_LENGTH} characters")
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError as error:
        raise ExpressionError(f"{source!r} is not an expression: {error.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError(f"{source!r} nests too deeply to read") from None


def _join(kinds: list[str]) -> str:
    """The kind of ``a or b``: the one kind of its parts, or :data:`MIXED`."""
    known = {kind for kind in kinds if kind != ANY}
    if not known:
        return ANY
    return known.pop() if len(known) == 1 and ANY not in kinds else (MIXED if len(known) > 1 else ANY)


_KIND_WORDS = {NUMBER: "a number", TEXT: "a text", OTHER: "a list or a localised text", MIXED: "a number or a text", ANY: "unknown"}


class _Checker:
    def __init__(self, names: Names, card: bool, reads: Reads, source: str) -> None:
        self.names, self.card, self.reads, self.source = names, card, reads, source
        self.target = False
        self.pile: str | None = None
        """The row of piles whose pile in question ``pile`` names (inside ``piles(ROW, ...)`` or a move's pile choice), else None."""

    def fail(self, message: str) -> ExpressionError:
        return ExpressionError(f"{message} in {self.source!r}")

    def zone(self, node: ast.expr) -> str:
        if not isinstance(node, ast.Name) or node.id not in self.names.zones:
            known = ", ".join(sorted(self.names.zones))
            raise self.fail(f"{ast.unparse(node)!r} is not a zone (zones: {known})")
        if node.id in self.names.rows and not self.in_pile(node.id):
            raise self.fail(f"zone {node.id!r} is a row of piles; read its piles with piles({node.id}, CONDITION), where `count({node.id})` is the pile in question's")
        self.reads.zones.add(node.id)
        return node.id

    def field_name(self, name: str) -> None:
        if name not in self.names.fields and name not in CARD_ATTRIBUTES:
            raise self.fail(f"no card field {name!r} (fields: {', '.join(sorted(self.names.fields | CARD_ATTRIBUTES))})")
        if name not in CARD_ATTRIBUTES:
            self.reads.fields.add(name)

    def visit_node(self, node: ast.expr, depth: int = 1) -> str:
        """Check ``node`` and return the kind of value it gives."""
        if depth > MAX_EXPRESSION_DEPTH:
            raise self.fail(over("the expression nests", depth, MAX_EXPRESSION_DEPTH, "levels"))
        inner = depth + 1
        if isinstance(node, ast.BoolOp) and isinstance(node.op, _BOOL_OPS):
            return _join([self.visit_node(value, inner) for value in node.values])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
            kind = self.visit_node(node.operand, inner)
            if isinstance(node.op, ast.USub):
                self.number(kind, node.operand, "`-`")
            return NUMBER
        if isinstance(node, ast.BinOp) and isinstance(node.op, _BIN_OPS):
            for side in (node.left, node.right):
                self.number(self.visit_node(side, inner), side, "arithmetic")
            return NUMBER
        if isinstance(node, ast.Compare) and all(isinstance(op, _COMPARE_OPS) for op in node.ops):
            left, left_kind = node.left, self.visit_node(node.left, inner)
            for op, right in zip(node.ops, node.comparators):
                if isinstance(op, (ast.In, ast.NotIn)):
                    if self.list_field(right) is not None:
                        self.among(left, left_kind, right, inner)
                    elif not isinstance(right, (ast.List, ast.Tuple)) or not all(isinstance(e, ast.Constant) for e in right.elts):
                        raise self.fail("`in` takes a list of constants, e.g. [1, 13], or a list field of a card, e.g. card.totals")
                    left, left_kind = right, OTHER
                    continue
                right_kind = self.visit_node(right, inner)
                if isinstance(op, _ORDERING):
                    self.ordered(left, left_kind, right, right_kind)
                self.option_choice(left, right)
                left, left_kind = right, right_kind
            return NUMBER
        if isinstance(node, ast.IfExp):
            self.visit_node(node.test, inner)
            return _join([self.visit_node(node.body, inner), self.visit_node(node.orelse, inner)])
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, str)):
            return TEXT if isinstance(node.value, str) else NUMBER
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, depth)
        if isinstance(node, ast.Call):
            return self.call(node, attribute=False, depth=depth)
        raise self.fail(f"{ast.unparse(node)!r} is not allowed here")

    def list_field(self, node: ast.expr) -> str | None:
        """The list field ``node`` reads (``card.FIELD``, ``pile.FIELD`` or ``top(ZONE).FIELD`` of an int_list or palette_list field), or None."""
        if isinstance(node, ast.Attribute) and node.attr in self.names.list_kinds:
            base = node.value
            if (isinstance(base, ast.Name) and base.id in ("card", "pile")) or (isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "top"):
                return node.attr
        return None

    def among(self, left: ast.expr, left_kind: str, right: ast.expr, depth: int) -> None:
        """``X in card.FIELD``: a value looked for in a card's list field, of the kind of the list's elements."""
        self.visit_node(right, depth)
        field_name = self.list_field(right)
        assert field_name is not None
        wanted = self.names.list_kinds[field_name]
        if ANY not in (left_kind, wanted) and left_kind != wanted:
            raise self.fail(f"{ast.unparse(left)!r} is {_KIND_WORDS[left_kind]} and the list {ast.unparse(right)!r} holds {_KIND_WORDS[wanted]}")

    def number(self, kind: str, node: ast.expr, what: str) -> None:
        if kind not in (NUMBER, ANY):
            raise self.fail(f"{what} takes whole numbers, and {ast.unparse(node)!r} is {_KIND_WORDS[kind]}")

    def ordered(self, left: ast.expr, left_kind: str, right: ast.expr, right_kind: str) -> None:
        for node, kind in ((left, left_kind), (right, right_kind)):
            if kind in (OTHER, MIXED):
                raise self.fail(f"{ast.unparse(node)!r} is {_KIND_WORDS[kind]}, which has no order (compare it with == or !=)")
        if ANY not in (left_kind, right_kind) and left_kind != right_kind:
            raise self.fail(f"{ast.unparse(left)!r} is {_KIND_WORDS[left_kind]} and {ast.unparse(right)!r} is {_KIND_WORDS[right_kind]}: they have no order between them")

    def option_choice(self, left: ast.expr, right: ast.expr) -> None:
        """``options.NAME`` compared with a text that is none of its choices (a typo that would never hold)."""
        for option, other in ((left, right), (right, left)):
            if (
                isinstance(option, ast.Attribute) and isinstance(option.value, ast.Name) and option.value.id == "options"
                and isinstance(other, ast.Constant) and isinstance(other.value, str)
                and other.value not in self.names.options.get(option.attr, (other.value,))
            ):
                choices = ", ".join(self.names.options[option.attr])
                raise self.fail(f"option {option.attr!r} has no choice {other.value!r} (choices: {choices})")

    def field_kind(self, name: str) -> str:
        return TEXT if name in CARD_ATTRIBUTES else self.names.field_kinds.get(name, ANY)

    def name(self, name: str) -> str:
        if name in self.names.counters:
            row = self.names.pile_counters.get(name)
            if row is not None and not self.in_pile(row):
                raise self.fail(f"counter {name!r} is kept per pile of {row!r}; read it inside piles({row}, CONDITION) or a pile choice of {row!r}")
            self.reads.counters.add(name)
            return NUMBER
        if name in self.names.variables:
            self.reads.variables.add(name)
            return self.names.variable_kinds.get(name, ANY)
        if name in BUILTIN_NAMES or name in ("true", "false", "True", "False"):
            return NUMBER
        if name in ROUND_NAMES:
            if not self.names.rounds:
                raise self.fail(f"`{name}` is only known when the rules data plays in `rounds`")
            return NUMBER
        if name == "target":
            if not self.target:
                raise self.fail("`target` is only known in an option with a `target` (its `where` and its effects)")
            return NUMBER
        if name == "pile":
            raise self.fail("`pile` needs a field after it, e.g. pile.level (the field of the card the pile lies under)")
        if name in ("card", "numbers", "setup", "options", "component"):
            raise self.fail(f"`{name}` needs a field after it, e.g. {name}.NAME")
        if name in self.names.zones:
            raise self.fail(f"{name!r} is a zone; use count({name}) or top({name}).FIELD")
        known = sorted(set(self.names.counters) | self.names.variables | BUILTIN_NAMES)
        raise self.fail(f"unknown name {name!r} (counters, variables and built-ins: {', '.join(known)})")

    def attribute(self, node: ast.Attribute, depth: int) -> str:
        base = node.value
        if isinstance(base, ast.Name) and base.id == "numbers":
            if node.attr not in self.names.numbers:
                raise self.fail(f"the spec has no number {node.attr!r} under `numbers`")
            self.reads.numbers.add(node.attr)
            return NUMBER
        if isinstance(base, ast.Name) and base.id == "options":
            if node.attr not in self.names.options:
                known = ", ".join(sorted(self.names.options)) or "none"
                raise self.fail(f"the rules data has no option {node.attr!r} under `options` (options: {known})")
            self.reads.options.add(node.attr)
            return TEXT
        if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "component":
            if base.attr not in self.names.components or node.attr != "count":
                known = ", ".join(sorted(self.names.components)) or "none"
                raise self.fail(f"{ast.unparse(node)!r} is not a component's count (component.ID.count; components: {known})")
            self.reads.components.add(base.attr)
            return NUMBER
        if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "setup":
            entry = f"{base.attr}.{node.attr}"
            if base.attr not in SETUP_PARTS:
                raise self.fail(f"setup.{base.attr} is not a setup entry (setup.deal.DECK, setup.display.DECK or setup.pieces.COMPONENT)")
            if entry not in self.names.setup:
                raise self.fail(f"no setup gives {entry!r}")
            self.reads.setup.add(entry)
            return NUMBER
        if isinstance(base, ast.Name) and base.id == "pile":
            if self.pile is None:
                raise self.fail("`pile` is only known inside piles(ROW, CONDITION) and a pile choice")
            self.field_name(node.attr)
            return self.field_kind(node.attr)
        if isinstance(base, ast.Name) and base.id == "card":
            if not self.card:
                raise self.fail("`card` is only known in a card choice's `where`")
            self.field_name(node.attr)
            return self.field_kind(node.attr)
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "top":
            self.call(base, attribute=True, depth=depth)
            self.field_name(node.attr)
            return self.field_kind(node.attr)
        raise self.fail(f"{ast.unparse(node)!r} is not a name of the game")

    def seat_argument(self, node: ast.expr) -> None:
        """A seat argument: ``target`` (where it is bound) or ``seat``."""
        if not isinstance(node, ast.Name) or node.id not in SEAT_NAMES:
            raise self.fail(f"{ast.unparse(node)!r} is not a seat (a seat argument is `target`, `seat` or `active`)")
        self.name(node.id)

    def in_pile(self, row: str) -> bool:
        """Whether ``row``'s pile in question is known: a pile of it, or of a row under the same deck, is bound."""
        return self.pile is not None and self.names.rows.get(self.pile) == self.names.rows.get(row)

    def piles(self, node: ast.Call, depth: int) -> None:
        """``piles(ROW, CONDITION)``: how many piles of a row satisfy the condition, read with ``pile`` bound to each."""
        if len(node.args) != 2:
            raise self.fail("piles() takes 2 argument(s): piles(ROW, CONDITION)")
        row = node.args[0]
        if not isinstance(row, ast.Name) or row.id not in self.names.rows:
            known = ", ".join(sorted(self.names.rows)) or "none"
            raise self.fail(f"{ast.unparse(row)!r} is not a row of piles, a zone with `under` (rows: {known})")
        if self.pile is not None:
            raise self.fail("piles() may not be read inside another pile's condition")
        self.reads.zones.add(row.id)
        self.pile = row.id
        try:
            self.visit_node(node.args[1], depth + 1)
        finally:
            self.pile = None

    def counter_of(self, node: ast.Call) -> None:
        """``counter(NAME, SEAT)``: a per-seat counter of another seat."""
        if len(node.args) != 2:
            raise self.fail("counter() takes 2 argument(s): counter(NAME, SEAT)")
        counter = node.args[0]
        if not isinstance(counter, ast.Name) or counter.id not in self.names.counters:
            raise self.fail(f"{ast.unparse(counter)!r} is not a counter (counters: {', '.join(sorted(self.names.counters))})")
        if not self.names.counters[counter.id]:
            raise self.fail(f"counter {counter.id!r} is shared; only a per-seat counter has a seat")
        self.reads.counters.add(counter.id)
        self.seat_argument(node.args[1])

    def mechanic_condition(self, node: ast.Call) -> None:
        """``mechanic(NAME, CONDITION)``: a condition of a listed mechanic."""
        if len(node.args) != 2 or not all(isinstance(a, ast.Name) for a in node.args):
            raise self.fail("mechanic() takes 2 names: mechanic(NAME, CONDITION)")
        name, condition = (a.id for a in node.args if isinstance(a, ast.Name))
        if name not in self.names.mechanics:
            raise self.fail(f"mechanic {name!r} is not listed under rules.mechanics ({', '.join(sorted(self.names.mechanics)) or 'none'})")
        self.reads.conditions.add((name, condition))

    def call(self, node: ast.Call, *, attribute: bool, depth: int) -> str:
        if isinstance(node.func, ast.Name) and node.func.id == "counter" and not node.keywords and not attribute:
            self.counter_of(node)
            return NUMBER
        if isinstance(node.func, ast.Name) and node.func.id == "mechanic" and not node.keywords and not attribute:
            self.mechanic_condition(node)
            return NUMBER
        if isinstance(node.func, ast.Name) and node.func.id in NUMBER_FUNCTIONS and not node.keywords and not attribute:
            if len(node.args) != 2:
                raise self.fail(f"{node.func.id}() takes 2 argument(s): {node.func.id}(A, B)")
            for argument in node.args:
                self.number(self.visit_node(argument, depth + 1), argument, f"{node.func.id}()")
            return NUMBER
        if isinstance(node.func, ast.Name) and node.func.id == "piles" and not node.keywords and not attribute:
            self.piles(node, depth)
            return NUMBER
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.keywords:
            raise self.fail(f"{ast.unparse(node.func)!r} is not a function of the rules ({', '.join(FUNCTIONS)}, counter, min, max, piles, mechanic)")
        name = node.func.id
        if len(node.args) == FUNCTIONS[name] + 1:
            # One more, last argument: the seat whose per-seat zone is read.
            zone_node = node.args[0]
            if isinstance(zone_node, ast.Name) and zone_node.id in self.names.zones and not self.names.zones[zone_node.id]:
                raise self.fail(f"zone {zone_node.id!r} is shared; only a per-seat zone has a seat")
            self.seat_argument(node.args[-1])
        elif len(node.args) != FUNCTIONS[name]:
            raise self.fail(f"{name}() takes {FUNCTIONS[name]} argument(s), or {FUNCTIONS[name] + 1} with a seat last")
        if name == "top" and not attribute:
            raise self.fail("top(ZONE) needs a field after it, e.g. top(discard).rank")
        self.zone(node.args[0])
        if name in FIELD_FUNCTIONS:
            field_node = node.args[1]
            if not isinstance(field_node, ast.Name):
                raise self.fail(f"{name}(ZONE, FIELD{', VALUE' if name in ('has', 'matching', 'sets') else ''}) names a card field")
            self.field_name(field_node.id)
            if name == "total":
                self.number(self.field_kind(field_node.id), field_node, "total()")
        if name in ("has", "matching", "sets"):
            self.visit_node(node.args[2], depth + 1)
        if name == "holds":
            card_node = node.args[1]
            if not isinstance(card_node, ast.Constant) or not isinstance(card_node.value, str):
                raise self.fail("holds(ZONE, 'CARD-ID') names a card by its id, in quotes")
            if card_node.value not in self.names.card_ids:
                raise self.fail(f"no card {card_node.value!r} in the decks in play")
        return NUMBER
