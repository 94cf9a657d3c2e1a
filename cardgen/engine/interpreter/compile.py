"""Expressions of rules data compiled to Python functions, once per Game.

The spec layer has already checked every expression (:mod:`cardgen.spec.rules_expr`);
here the checked tree becomes the source of one small function ``f(s, S, c)`` over
a :class:`~cardgen.engine.interpreter.game.DataState` ``s``, the seat ``S`` the
expression is about and the card design ``c`` (for ``card.FIELD``). Numbers and
setup entries are folded to constants, zones and counters to flat indices, card
fields to per-design tables, so a condition costs a few list lookups in a playout.
Only constructs the checker accepted are emitted, and the function sees nothing
but the tables named here.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import lru_cache
from types import CodeType
from typing import Any, Callable, Mapping, Sequence

from cardgen.engine.interpreter.compile_piles import PileCode, counted_against_zero, reads_pile
from cardgen.spec.rules_expr import CARD_ATTRIBUTES, FUNCTIONS, Names, parse_expression

ExprFunction = Callable[[Any, int, int], Any]
"""A compiled expression: ``f(state, seat, card_design)``."""

_OPS = {
    ast.And: "and", ast.Or: "or", ast.Not: "not ", ast.USub: "-",
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in",
}
_ORDER = {ast.Lt: "_lt", ast.LtE: "_le", ast.Gt: "_gt", ast.GtE: "_ge"}
_PLAIN_ORDER = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_PLAIN_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult)
"""Arithmetic that needs no guard when both sides have a value (division by zero gives no value)."""


@lru_cache(maxsize=8192)
def compiled(source: str, mode: str) -> CodeType:
    """Python's ``compile`` of emitted ``source`` (as ``<rules data>``, in ``mode``), kept: a code object is a function
    of its text alone, and a rebuild, or a game compiled at another player count, emits most of the same texts again."""
    return compile(source, "<rules data>", mode)


def _lt(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a < b


def _le(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a <= b


def _gt(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a > b


def _ge(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a >= b


def _add(a: Any, b: Any) -> Any:
    return None if a is None or b is None else a + b


def _sub(a: Any, b: Any) -> Any:
    return None if a is None or b is None else a - b


def _mul(a: Any, b: Any) -> Any:
    return None if a is None or b is None else a * b


def _floordiv(a: Any, b: Any) -> Any:
    return None if a is None or not b else a // b


def _mod(a: Any, b: Any) -> Any:
    return None if a is None or not b else a % b


def _neg(a: Any) -> Any:
    return None if a is None else -a


_ARITHMETIC = {ast.Add: "_add", ast.Sub: "_sub", ast.Mult: "_mul", ast.FloorDiv: "_floordiv", ast.Mod: "_mod"}
"""Arithmetic on values that may be missing (an empty zone's top card, a variable not yet set) or divided by
zero gives no value (``None``), as the checker allows only numbers into it: so no expression raises in play."""


def _distinct(values: list[Any], zone: list[int]) -> int:
    """How many different values (``None`` aside) the designs in ``zone`` have in a field table."""
    return len({values[d] for d in zone} - {None})


def _has(values: list[Any], zone: list[int], value: Any) -> bool:
    """Whether some design in ``zone`` has ``value`` (never ``None``) in a field table."""
    return value is not None and any(values[d] == value for d in zone)


def _among(value: Any, values: Any) -> bool:
    """Whether ``value`` is one of a card's list field (never when either is missing)."""
    return value is not None and values is not None and value in values


def _matching(values: list[Any], zone: list[int], value: Any) -> int:
    """How many designs in ``zone`` have ``value`` (never ``None``) in a field table."""
    return 0 if value is None else sum(1 for d in zone if values[d] == value)
def _sets(values: list[Any], zone: list[int], value: Any) -> int:
    """Complete sets in ``zone``: the copies there of the scarcest design whose field (a table) has ``value``."""
    designs = [d for d, v in enumerate(values[:-1]) if v == value and value is not None]
    return min(zone.count(d) for d in designs) if designs else 0


def _sets_of(zone: list[int], designs: tuple[int, ...]) -> int:
    """Complete sets of ``designs`` (known when the game is made) in ``zone``."""
    return min([zone.count(d) for d in designs]) if designs else 0


def _min(a: Any, b: Any) -> Any:
    return None if a is None or b is None else min(a, b)


def _max(a: Any, b: Any) -> Any:
    return None if a is None or b is None else max(a, b)


@dataclass
class Tables:
    """What compiled expressions read, fixed for one Game."""

    names: Names
    zone_index: Mapping[str, int]
    """Zone -> its flat index (a per-seat zone's seat 0; seat k is index + k)."""
    counter_index: Mapping[str, int]
    variable_index: Mapping[str, int]
    field_values: Mapping[str, list[Any]]
    """Card field -> value per design, with ``None`` for the empty-zone sentinel design at the end."""
    constants: Mapping[str, int]
    """``numbers.X`` and ``setup.deal.X`` / ``setup.display.X`` values for this player count."""
    players: int
    namespace: dict[str, Any] = field(default_factory=dict)
    card_design: Mapping[str, int] = field(default_factory=dict)
    """Card id -> its design index, for ``holds(ZONE, 'CARD-ID')``."""
    option_values: Mapping[str, str] = field(default_factory=dict)
    """Rule option -> the choice the spec makes (or the default), for ``options.NAME``."""
    rows: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Row of piles -> (the design under its leftmost pile, how many piles): pile ``P`` lies under design ``first + P``."""
    design_sets: dict[frozenset[int], str] = field(default_factory=dict)
    """Each set of designs compiled expressions test a zone against (the cards of a field's value), by its name in ``namespace``."""
    lookup_names: dict[str, str] = field(default_factory=dict)
    """The code looking up the one pile a value names -> the name the pile is kept under in emitted code (one name
    per lookup, so conditions reading the same pile read alike and a step's code reads the shared part once)."""

    def lookup_name(self, lookup: str) -> str:
        """The name the pile ``lookup`` finds is kept under in emitted code."""
        return self.lookup_names.setdefault(lookup, f"_P{len(self.lookup_names)}")

    def __post_init__(self) -> None:
        self.namespace.update({"_lt": _lt, "_le": _le, "_gt": _gt, "_ge": _ge, "_none": len(next(iter(self.field_values.values()), [None])) - 1})
        self.namespace.update({"_distinct": _distinct, "_has": _has, "_matching": _matching, "_among": _among, "_neg": _neg})
        self.namespace.update({"_sets": _sets, "_sets_of": _sets_of, "_min": _min, "_max": _max})
        self.namespace.update({"_add": _add, "_sub": _sub, "_mul": _mul, "_floordiv": _floordiv, "_mod": _mod})
        for name, values in self.field_values.items():
            self.namespace[f"F_{name}"] = values


_CONSTANT_NAMES = frozenset({"numbers", "setup", "options", "component", "players", "min", "max", "true", "false", "True", "False"})
"""The names an expression may read and still have one value for the whole game (with the rule options chosen)."""
class _Emitter(PileCode):
    shortcuts = True
    """Whether parts known when the game is made are worked out then (a condition reading only numbers and rule
    options, a field of a pile named by its place) and counts compared with 0 are read as "is there one" (any
    pile, a zone holding a card of a value), stopping at the first; the plain way (false) is kept for the test
    that compares the two (tests/engine/test_rules_data_fast_paths.py)."""

    def __init__(self, tables: Tables, seat: int | str | None = None, target: str = "s.tg") -> None:
        self.t = tables
        self.seat = "S" if seat is None else str(seat)
        """The seat the expression is about: the argument ``S``, a fixed seat folded in, or the code reading it
        (``s.tg``, ``s.seat``)."""
        self.target = target
        """The code reading ``target``: the state's aim, or a loop's seat when every seat is tried in one function."""
        self.pile: str | None = None
        """The row of piles whose pile in question ``pile`` names, else None."""
        self.pile_var: str | int = "P"
        """The pile in question in the emitted code: a name (``P``, a loop's or a lookup's) or, for a row unrolled pile by pile, its place."""
        self.folding = False
        """Whether the node being emitted is being worked out now (so it is not folded again)."""

    def at(self, base: int) -> str:
        """The index ``base`` plus the pile in question (folded when the pile is a known place)."""
        return str(base + self.pile_var) if isinstance(self.pile_var, int) else f"{base} + {self.pile_var}"

    def zone(self, node: ast.expr, seat: ast.expr | None = None) -> str:
        """The zone ``node`` names: the seat in question's, or ``seat``'s (a seat argument) for a per-seat zone."""
        assert isinstance(node, ast.Name)
        index = self.t.zone_index[node.id]
        if node.id in self.t.rows:  # the checker let a row be read only as the pile in question's
            return f"s.z[{self.at(index)}]"
        whose = self.seat if seat is None else self.emit(seat)
        return f"s.z[{index} + {whose}]" if self.t.names.zones[node.id] else f"s.z[{index}]"

    def seat_of(self, node: ast.Call, arguments: int) -> ast.expr | None:
        """The seat argument of a zone function with ``arguments`` arguments of its own (None: the seat in question)."""
        return node.args[arguments] if len(node.args) > arguments else None

    def field_table(self, name: str) -> str:
        return f"F_{name}"

    def emit(self, node: ast.expr) -> str:
        if self.shortcuts and not self.folding and isinstance(node, (ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Compare, ast.IfExp, ast.Call)):
            known, value = self.known(node)
            if known:
                return repr(value)
        if isinstance(node, ast.BoolOp):
            operands = self.kept_operands(node) if self.shortcuts else node.values
            if len(operands) == 1:
                return self.emit(operands[0])
            return "(" + f" {_OPS[type(node.op)]} ".join(self.emit(v) for v in operands) + ")"
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub):
                if self.has_value(node.operand):
                    return f"(-{self.emit(node.operand)})"
                return f"_neg({self.emit(node.operand)})"
            return f"({_OPS[type(node.op)]}{self.emit(node.operand)})"
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, _PLAIN_ARITHMETIC) and self.has_value(node.left) and self.has_value(node.right):
                return f"({self.emit(node.left)} {_OPS[type(node.op)]} {self.emit(node.right)})"
            return f"{_ARITHMETIC[type(node.op)]}({self.emit(node.left)}, {self.emit(node.right)})"
        if isinstance(node, ast.Compare):
            if self.shortcuts:
                existence = self.existence(node)
                if existence is not None:
                    return existence
            parts = []
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                if type(op) in _ORDER and self.has_value(left) and self.has_value(right):  # two numbers: Python's own order
                    parts.append(f"({self.emit(left)} {_PLAIN_ORDER[type(op)]} {self.emit(right)})")
                elif type(op) in _ORDER:
                    parts.append(f"{_ORDER[type(op)]}({self.emit(left)}, {self.emit(right)})")
                elif isinstance(op, (ast.In, ast.NotIn)) and not isinstance(right, (ast.List, ast.Tuple)):  # a card's list field
                    among = f"_among({self.emit(left)}, {self.emit(right)})"
                    parts.append(among if isinstance(op, ast.In) else f"(not {among})")
                elif isinstance(op, (ast.In, ast.NotIn)):
                    assert isinstance(right, (ast.List, ast.Tuple))
                    values = ", ".join(repr(e.value) for e in right.elts if isinstance(e, ast.Constant))
                    parts.append(f"({self.emit(left)} {_OPS[type(op)]} ({values},))")
                else:
                    parts.append(f"({self.emit(left)} {_OPS[type(op)]} {self.emit(right)})")
                left = right
            return "(" + " and ".join(parts) + ")"
        if isinstance(node, ast.IfExp):
            if self.shortcuts:
                known, value = self.known(node.test)
                if known:  # the test reads only numbers and rule options: the branch taken is known now
                    return self.emit(node.body if value else node.orelse)
            return f"({self.emit(node.body)} if {self.emit(node.test)} else {self.emit(node.orelse)})"
        if isinstance(node, ast.Constant):
            return repr(node.value)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise AssertionError(f"unchecked node {ast.dump(node)}")

    def known(self, node: ast.expr) -> tuple[bool, Any]:
        """Whether ``node`` has one value for the whole game (it reads only numbers, setup entries, components, the
        player count and rule options), and that value (a number, a text, a truth value or no value)."""
        if isinstance(node, ast.Constant):
            return True, node.value
        if not all(sub.id in _CONSTANT_NAMES for sub in ast.walk(node) if isinstance(sub, ast.Name)):
            return False, None
        self.folding = True
        try:
            code = self.emit(node)
        finally:
            self.folding = False
        try:
            value = eval(compiled(code, "eval"), self.t.namespace)  # noqa: S307 - emitted from a checked tree
        except Exception:  # left to play, which reads it as it always has
            return False, None
        return (True, value) if value is None or isinstance(value, (bool, int, str)) else (False, None)

    def kept_operands(self, node: ast.BoolOp) -> list[ast.expr]:
        """The operands of ``and``/``or`` that may decide its value: one known to be true (``and``) or false (``or``)
        before the last is passed over, and the operands after one known to decide it are never read."""
        deciding = isinstance(node.op, ast.Or)  # the truth an operand has to decide the whole
        kept: list[ast.expr] = []
        for k, operand in enumerate(node.values):
            known, value = self.known(operand)
            if known and bool(value) is deciding:
                kept.append(operand)
                break
            if known and k < len(node.values) - 1:
                continue
            kept.append(operand)
        return kept

    def existence(self, node: ast.Compare) -> str | None:
        """A count of piles or of a zone's cards of a known value compared with 0 (``> 0``, ``>= 1``, ``!= 0``,
        ``== 0``, ``< 1``, ``<= 0``, either way round) as whether there is one, stopping at the first; else None."""
        parts = counted_against_zero(node)
        if parts is None:
            return None
        left, some = parts
        assert isinstance(left.func, ast.Name)
        if left.func.id == "piles":
            row = left.args[0]
            assert isinstance(row, ast.Name)
            return self.piles(row.id, left.args[1], some)
        if left.func.id == "matching":
            designs = self.designs_of(left)
            if designs is None:
                return None
            zone = self.zone(left.args[0], self.seat_of(left, 3))
            return f"(not {designs}.isdisjoint({zone}))" if some else f"{designs}.isdisjoint({zone})"
        return None

    def designs_of(self, node: ast.Call) -> str | None:
        """For ``matching(ZONE, FIELD, VALUE)`` with a value known now: the name of the set of designs having it."""
        field_node = node.args[1]
        assert isinstance(field_node, ast.Name)
        known, value = self.known(node.args[2])
        if not known:
            return None
        values = self.t.field_values[field_node.id][:-1]
        designs = frozenset(d for d, v in enumerate(values) if value is not None and v == value)
        name = self.t.design_sets.get(designs)
        if name is None:
            name = self.t.design_sets[designs] = f"_DS{len(self.t.design_sets)}"
            self.t.namespace[name] = designs
        return name

    def has_value(self, node: ast.expr) -> bool:
        """Whether ``node`` always has a value (never ``None``), so an order or a sum, product or difference over it
        needs no guard for a missing value: a number written in the rules, a count or another function giving a
        number, a counter (always a whole number), the seat, the turn, a number of the spec, and sums, products
        and differences of these. A variable, a card's field, the top card of a zone and a division may have none."""
        if isinstance(node, ast.Constant):
            return node.value is not None
        if isinstance(node, ast.Name):
            return node.id in ("players", "seat", "turn", "target", "active") or node.id in self.t.counter_index
        if isinstance(node, ast.Attribute):
            return isinstance(node.value, ast.Name) and node.value.id == "numbers" or (
                isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name) and node.value.value.id in ("setup", "component")
            )
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("min", "max"):
                return all(self.has_value(argument) for argument in node.args)
            return node.func.id in ("count", "counter", "total", "distinct", "matching", "sets", "holds", "piles")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return self.has_value(node.operand)
        if isinstance(node, ast.BinOp) and isinstance(node.op, _PLAIN_ARITHMETIC):
            return self.has_value(node.left) and self.has_value(node.right)
        return False

    def name(self, name: str) -> str:
        if name in ("true", "True"):
            return "True"
        if name in ("false", "False"):
            return "False"
        if name == "players":
            return str(self.t.players)
        if name == "seat":
            return self.seat
        if name == "turn":
            return "s.turn"
        if name == "round_turn":  # every round has one turn per seat (the checker refuses what would change that)
            return f"((s.turn - 1) % {self.t.players} + 1)"
        if name == "round":
            return f"((s.turn - 1) // {self.t.players} + 1)"
        if name == "target":
            return self.target
        if name == "active":
            return "s.seat"
        if name in self.t.counter_index:
            index = self.t.counter_index[name]
            if name in self.t.names.pile_counters:  # the checker let it be read only as the pile in question's
                return f"s.c[{self.at(index)}]"
            return f"s.c[{index} + {self.seat}]" if self.t.names.counters[name] else f"s.c[{index}]"
        return f"s.v[{self.t.variable_index[name]}]"

    def attribute(self, node: ast.Attribute) -> str:
        base = node.value
        if isinstance(base, ast.Name) and base.id == "numbers":
            return str(self.t.constants[f"numbers.{node.attr}"])
        if isinstance(base, ast.Name) and base.id == "options":
            return repr(self.t.option_values[node.attr])
        if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "setup":
            return str(self.t.constants.get(f"setup.{base.attr}.{node.attr}", 0))
        if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "component":
            return str(self.t.constants[f"component.{base.attr}.count"])
        if isinstance(base, ast.Name) and base.id == "card":
            return f"{self.field_table(node.attr)}[c]"
        if isinstance(base, ast.Name) and base.id == "pile":
            assert self.pile is not None
            first = self.t.rows[self.pile][0]
            if isinstance(self.pile_var, int):  # a pile named by its place: its card's field is known now
                value = self.t.field_values[node.attr][first + self.pile_var]
                return repr(tuple(value) if isinstance(value, list) else value)
            return f"{self.field_table(node.attr)}[{self.at(first)}]"
        assert isinstance(base, ast.Call)
        zone = self.zone(base.args[0], self.seat_of(base, 1))
        return f"{self.field_table(node.attr)}[({zone}[-1] if {zone} else _none)]"

    def call(self, node: ast.Call) -> str:
        assert isinstance(node.func, ast.Name)
        if node.func.id == "counter":
            counter = node.args[0]
            assert isinstance(counter, ast.Name)
            return f"s.c[{self.t.counter_index[counter.id]} + {self.emit(node.args[1])}]"
        if node.func.id == "mechanic":
            name, condition = (a.id for a in node.args if isinstance(a, ast.Name))
            return f"bool(_M_{name}_{condition}(s, {self.seat}, c))"
        if node.func.id in ("min", "max"):
            return f"_{node.func.id}({self.emit(node.args[0])}, {self.emit(node.args[1])})"
        if node.func.id == "piles":
            row = node.args[0]
            assert isinstance(row, ast.Name)
            return self.piles(row.id, node.args[1])
        zone = self.zone(node.args[0], self.seat_of(node, FUNCTIONS[node.func.id]))
        if node.func.id == "count":
            return f"len({zone})"
        if node.func.id == "holds":
            card_node = node.args[1]
            assert isinstance(card_node, ast.Constant) and isinstance(card_node.value, str)
            return f"({self.t.card_design[card_node.value]} in {zone})"
        field_node = node.args[1]
        assert isinstance(field_node, ast.Name)
        table = self.field_table(field_node.id)
        if node.func.id == "distinct":
            if field_node.id == "id" and self.shortcuts:  # one id per design: the zone's distinct designs
                return f"len(set({zone}))"
            return f"_distinct({table}, {zone})"
        if node.func.id == "has":
            return f"_has({table}, {zone}, {self.emit(node.args[2])})"
        if node.func.id == "matching":
            designs = self.designs_of(node) if self.shortcuts else None
            if designs is not None:  # a value known now: the zone's cards in the set of designs having it, counted in one pass
                return f"sum(map({designs}.__contains__, {zone}))"
            return f"_matching({table}, {zone}, {self.emit(node.args[2])})"
        if node.func.id == "sets":
            wanted = node.args[2]
            if isinstance(wanted, ast.Constant):  # the designs of a set, known now
                values = self.t.field_values[field_node.id][:-1]
                return f"_sets_of({zone}, {tuple(d for d, v in enumerate(values) if v == wanted.value)!r})"
            return f"_sets({table}, {zone}, {self.emit(wanted)})"
        return f"sum(({table}[d] or 0) for d in {zone})"


def compile_expression(source: int | str, tables: Tables, *, card: bool = False, target: bool = False) -> ExprFunction:
    """The function computing ``source`` (already checked by the validator; checked again here).

    ``target``: whether ``target`` is bound; it reads the state's ``tg``, the seat the option aims at."""
    tree, _ = parse_expression(source, tables.names, card=card, target=target)
    code = _Emitter(tables).emit(tree)
    return eval(compiled(f"lambda s, S, c: {code}", "eval"), tables.namespace)  # noqa: S307 - emitted from a checked tree


def expression_code(source: int | str, tables: Tables, *, card: bool = False, target: bool = False) -> str:
    """The Python code :func:`compile_expression` makes a function of: it reads the state ``s``, the seat ``S`` and
    the card design ``c``, and the names of ``tables.namespace``; for code that lists or reads several at once (a
    step's legal actions) without a call per expression."""
    tree, _ = parse_expression(source, tables.names, card=card, target=target)
    return _Emitter(tables).emit(tree)


def condition_terms(source: int | str, tables: Tables) -> list[str]:
    """The code of a condition read only for its truth, as its terms joined by ``and`` (each read in turn, as the
    whole would be): terms known to be true are left out, and one known to be false is the only term (``False``)."""
    tree, _ = parse_expression(source, tables.names)
    emitter = _Emitter(tables)
    nodes = [tree]
    while any(isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) for node in nodes):  # a and (b and c): a, b, c
        nodes = [part for node in nodes for part in (node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) else [node])]
    terms: list[str] = []
    for node in nodes:
        known, value = emitter.known(node) if emitter.shortcuts else (False, None)
        if known and not value:
            return ["False"]
        if not known:
            terms.extend(emitter.existence_terms(node) or [emitter.emit(node)])
    return terms or ["True"]


def compile_pile_expression(source: int | str, tables: Tables, row: str, *, card: bool = False, target: bool = False) -> Callable[[Any, int, int, int], Any]:
    """The function ``f(state, seat, card_design, pile)`` computing ``source`` with ``pile`` bound to pile ``pile`` of ``row``."""
    tree, _ = parse_expression(source, tables.names, card=card, target=target, pile=row)
    emitter = _Emitter(tables)
    emitter.pile = row
    return eval(compiled(f"lambda s, S, c, P: {emitter.emit(tree)}", "eval"), tables.namespace)  # noqa: S307 - emitted from a checked tree


def compile_first_pile(
    source: int | str | None, tables: Tables, row: str, base: int, *, nonempty: bool, card: bool = False, target: bool = False
) -> Callable[[Any, int, int], int]:
    """A function ``f(state, seat, card_design)`` giving the leftmost pile of ``row`` for which ``source`` holds (None:
    any pile) and, when ``nonempty``, whose zone slot from ``base`` holds a card; -1 when none does. One expression:
    the pile a value names looked up, or a short row's piles read one by one with their places known."""
    emitter = _Emitter(tables)
    tree = parse_expression(source, tables.names, card=card, target=target, pile=row)[0] if source is not None else None
    code = emitter.first_pile(row, tree, base, nonempty)
    return eval(compiled(f"lambda s, S, c: {code}", "eval"), tables.namespace)  # noqa: S307 - emitted from a checked tree


def pile_codes(source: int | str | None, tables: Tables, row: str, *, target: bool = False) -> list[str]:
    """Per pile of ``row``, in order, the code of ``source`` with ``pile`` bound to it, its place known (``True`` for none)."""
    tree = parse_expression(source, tables.names, target=target, pile=row)[0] if source is not None else None
    emitter = _Emitter(tables)
    emitter.pile = row
    codes = []
    for pile in range(tables.rows[row][1]):
        emitter.pile_var = pile
        codes.append(emitter.emit(tree) if tree is not None else "True")
    return codes


def fixed_piles(source: int | str, tables: Tables, row: str, designs: int, *, target: bool = False) -> list[tuple[int, ...]] | None:
    """Per card design, the piles of ``row`` (in order) for which a pile condition holds, when it reads nothing but
    the card, the pile and what is fixed for the game (``card.type == 'special' or pile.level == card.level``);
    None when it reads the position or a seat."""
    if not names_read(source, tables, row) <= _CONSTANT_NAMES | {"card", "pile"}:
        return None
    condition = compile_pile_expression(source, tables, row, card=True, target=target)
    try:
        return [tuple(pile for pile in range(tables.rows[row][1]) if condition(None, 0, design, pile)) for design in range(designs)]
    except (AttributeError, TypeError):  # it reads the position after all
        return None


def compile_any_seat(source: int | str, tables: Tables) -> ExprFunction:
    """A function true when ``source`` holds for some seat: one expression per seat, joined by ``or``, no loop."""
    tree, _ = parse_expression(source, tables.names)
    code = " or ".join(_Emitter(tables, seat).emit(tree) for seat in range(tables.players))
    return eval(compiled(f"lambda s, S, c: {code}", "eval"), tables.namespace)  # noqa: S307 - emitted from a checked tree


def compile_all_seats(source: int | str, tables: Tables) -> ExprFunction:
    """A function true when ``source`` holds for every seat: one expression per seat, joined by ``and``."""
    tree, _ = parse_expression(source, tables.names)
    code = " and ".join(_Emitter(tables, seat).emit(tree) for seat in range(tables.players))
    return eval(compiled(f"lambda s, S, c: {code}", "eval"), tables.namespace)  # noqa: S307 - emitted from a checked tree


def compile_first_holding(conditions: Sequence[tuple[int | str, str]], tables: Tables, first: int) -> Callable[[Any], int]:
    """A function of the state giving ``first + k`` for the first of ``conditions`` that holds (``first +
    len(conditions)`` when none does), in one call: one conditional expression, the conditions read in order and
    each only when the ones before it failed, as a loop calling them one by one would.

    Each condition is ``(source, seat)``: the expression and the code reading the seat it is about (``s.seat``,
    ``s.tg``)."""
    code = str(first + len(conditions))
    for k in range(len(conditions) - 1, -1, -1):
        source, seat = conditions[k]
        tree, _ = parse_expression(source, tables.names, target=True)
        code = f"{first + k} if {_Emitter(tables, seat).emit(tree)} else ({code})"
    # ``c`` (no card) for the names that take one, such as a mechanic's condition.
    return eval(compiled(f"lambda s, c=0: {code}", "eval"), tables.namespace)  # noqa: S307 - emitted from a checked tree


def compile_aimed_seats(source: int | str, tables: Tables) -> Callable[[Any, int], list[int]]:
    """A function ``f(state, seat)`` listing, lowest first, every seat ``target`` may be for ``source`` to hold (an
    option's ``target.where``), in one call instead of one call per seat."""
    tree, _ = parse_expression(source, tables.names, target=True)
    code = _Emitter(tables, target="T").emit(tree)
    return eval(compiled(f"lambda s, S, c=0: [T for T in range({tables.players}) if {code}]", "eval"), tables.namespace)  # noqa: S307 - emitted from a checked tree


def names_read(source: int | str, tables: Tables, pile: str | None = None) -> frozenset[str]:
    """Every name an expression reads (zones, counters, variables, ``seat``, ``turn``...; also the names of
    functions, fields and ``numbers``/``options``, which never change in play), for working out before play when
    a condition can change (``pile``: the row whose pile in question ``pile`` names, for a pile condition)."""
    tree, _ = parse_expression(source, tables.names, card=True, target=True, pile=pile)
    return frozenset(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))


def constant_value(source: int | str, tables: Tables) -> int:
    """The value of an expression that reads no position (a count at setup)."""
    value = compile_expression(source, tables)(None, 0, 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{source!r} is not a whole number")
    return value


def field_tables(designs: Sequence[Mapping[str, Any]], fields: frozenset[str]) -> dict[str, list[Any]]:
    """Per-field value lists over the designs, with a trailing ``None`` for the empty-zone sentinel."""
    tables: dict[str, list[Any]] = {}
    for name in fields | CARD_ATTRIBUTES:
        tables[name] = [design.get(name) for design in designs] + [None]
    return tables


def fixed_per_design(where: str, tables: Tables, designs: int) -> tuple[bool | None, ...]:
    """Per design, whether a card condition holds, when it can be told from the card alone (it reads nothing of the
    position for that card: ``card.type == 'construction'``); None where it must be read in play. A condition
    naming a seat is always read in play."""
    tree, _ = parse_expression(where, tables.names, card=True, target=True)
    if any(isinstance(node, ast.Name) and node.id in ("seat", "target", "active", "turn") for node in ast.walk(tree)):
        return (None,) * designs
    condition = compile_expression(where, tables, card=True, target=True)
    fixed: list[bool | None] = []
    for design in range(designs):
        try:
            fixed.append(bool(condition(None, 0, design)))
        except (AttributeError, TypeError):  # it reads the position for this card
            fixed.append(None)
    return tuple(fixed)


