"""The code of ``piles(ROW, CONDITION)`` and of a pile chosen in a row, as the expression compiler writes it.

A mixin of :class:`~cardgen.engine.interpreter.compile._Emitter`: which piles are worth looking at for a condition
(the one pile a value names, looked up in a table made when the game is made, or the piles of a list of them), a
count of piles or whether there is one, stopping at the first, a row of few piles read pile by pile with each pile's
place known, and the leftmost pile a choice picks.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardgen.engine.interpreter.compile import Tables

UNROLLED_PILES = 16
"""``piles(ROW, ...)`` over a row of at most this many piles is one expression per pile (the pile a constant), no loop."""


class PileCode:
    """The emitter's code for rows of piles (see the module)."""

    t: "Tables"
    pile: str | None
    pile_var: str | int
    shortcuts: bool

    def emit(self, node: ast.expr) -> str:  # the emitter's
        raise NotImplementedError

    def existence_terms(self, node: ast.expr) -> list[str] | None:
        """For ``piles(ROW, CONDITION) > 0`` (or the like) whose pile is looked up, read for its truth only: its
        terms (the lookup, then each term of the condition), to be joined by ``and``; else None."""
        parts = counted_against_zero(node) if self.shortcuts and isinstance(node, ast.Compare) else None
        if parts is None or not parts[1] or not isinstance(parts[0].func, ast.Name) or parts[0].func.id != "piles":
            return None
        left = parts[0]
        assert isinstance(left.args[0], ast.Name)
        lookup, _, terms = self.pile_scan(left.args[0].id, left.args[1])
        if lookup is None:
            return None
        self.pile = left.args[0].id
        self.pile_var = name = self.t.lookup_name(lookup)
        try:
            return [f"({name} := {lookup}) >= 0", *(self.emit(term) for term in terms)]
        finally:
            self.pile, self.pile_var = None, "P"

    def pile_scan(self, row: str, condition: ast.expr) -> tuple[str | None, str, list[ast.expr]]:
        """The piles of ``row`` worth looking at for ``condition``: (the code of the one pile it may hold for, -1 for
        none, or None; else the code of the piles to look at, in order; the terms of the condition left to read).

        When the condition starts with ``VALUE in pile.FIELD`` (the site whose totals hold the roll), or (with the
        shortcuts) ``pile.FIELD == VALUE`` for a field of single values, and VALUE does not read the pile, only the
        piles the value names are looked at, through a table made now (value -> piles); where each value names one
        pile at most, that pile is looked up with no loop."""
        first, size = self.t.rows[row]
        terms = list(condition.values) if isinstance(condition, ast.BoolOp) and isinstance(condition.op, ast.And) else [condition]
        head = terms[0]
        field_name, value_node, among = self._pile_head(head)
        if field_name is None or value_node is None:
            return None, f"range({size})", terms
        index: dict[Any, tuple[int, ...]] = {}
        for pile in range(size):
            held = self.t.field_values[field_name][first + pile]
            for value in (held or ()) if among else (held,):
                index[value] = index.get(value, ()) + (pile,)
        key = f"_PI_{row}_{field_name}" if among else f"_PE_{row}_{field_name}"
        if self.shortcuts and all(len(found) == 1 for found in index.values()):
            key = f"_PI1_{row}_{field_name}" if among else f"_PE1_{row}_{field_name}"
            self.t.namespace[key] = {value: found[0] for value, found in index.items()}
            return f"{key}.get({self.emit(value_node)}, -1)", "", terms[1:]
        self.t.namespace[key] = index
        return None, f"{key}.get({self.emit(value_node)}, ())", terms[1:]

    def _pile_head(self, head: ast.expr) -> tuple[str | None, ast.expr | None, bool]:
        """For a first term ``VALUE in pile.FIELD`` or ``pile.FIELD == VALUE`` (VALUE not reading the pile): the field,
        the value's node and whether the field is a list; else (None, None, False)."""
        if not isinstance(head, ast.Compare) or len(head.ops) != 1:
            return None, None, False

        def pile_field(node: ast.expr) -> str | None:
            is_pile = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "pile"
            return node.attr if is_pile and isinstance(node, ast.Attribute) else None

        left, right = head.left, head.comparators[0]
        if isinstance(head.ops[0], ast.In) and pile_field(right) is not None and not reads_pile(left, self.t):
            return pile_field(right), left, True
        if not self.shortcuts or not isinstance(head.ops[0], ast.Eq):
            return None, None, False
        for side, other in ((left, right), (right, left)):
            name = pile_field(side)
            if name is not None and name not in self.t.names.list_kinds and not reads_pile(other, self.t) and self.single_value(other):
                return name, other, False
        return None, None, False

    def single_value(self, node: ast.expr) -> bool:
        """Whether ``node`` gives a single value (a number, a text, or none), never a list or a localised text, so it
        may be looked up in a table."""
        kinds = ("number", "text")
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.Name):
            return node.id in self.t.counter_index or (node.id in self.t.variable_index and self.t.names.variable_kinds.get(node.id, "any") in (*kinds, "any"))
        if isinstance(node, ast.Attribute) and node.attr not in self.t.names.list_kinds:
            base = node.value
            if isinstance(base, ast.Name) and base.id in ("numbers", "options"):
                return True
            return (isinstance(base, ast.Name) and base.id == "card" or isinstance(base, ast.Call)) and (
                node.attr in ("id", "type", "effect") or self.t.names.field_kinds.get(node.attr) in kinds
            )
        return False

    def piles(self, row: str, condition: ast.expr, some: bool | None = None) -> str:
        """``piles(ROW, CONDITION)``: a count over the row's piles, or (``some`` true or false) whether some pile
        satisfies the condition or none does, stopping at the first. Only the piles :meth:`pile_scan` names are
        looked at; otherwise a row of at most :data:`UNROLLED_PILES` piles is read pile by pile, each pile's place
        known (no loop)."""
        size = self.t.rows[row][1]
        lookup, piles, terms = self.pile_scan(row, condition)
        self.pile = row
        try:
            if lookup is not None:  # one pile at most: looked up, then its conditions read
                self.pile_var = name = self.t.lookup_name(lookup)
                kept = " and ".join([f"({name} := {lookup}) >= 0", *(self.emit(term) for term in terms)])
                return f"(True if {kept} else False)" if some else f"(False if {kept} else True)" if some is not None else f"(1 if {kept} else 0)"
            if self.shortcuts and piles.startswith("range(") and size <= UNROLLED_PILES:
                each = []
                for pile in range(size):
                    self.pile_var = pile
                    each.append(" and ".join(self.emit(term) for term in terms) or "True")
                if some is None:
                    return "(" + " + ".join(f"(1 if {kept} else 0)" for kept in each) + ")"
                joined = " or ".join(f"({kept})" for kept in each)
                return f"(True if {joined} else False)" if some else f"(False if {joined} else True)"
            self.pile_var = "P"
            kept = " and ".join(self.emit(term) for term in terms) or "True"
            if some is None:
                return f"sum(1 for P in {piles} if {kept})"
            return f"any({kept} for P in {piles})" if some else f"(not any({kept} for P in {piles}))"
        finally:
            self.pile, self.pile_var = None, "P"

    def first_pile(self, row: str, condition: ast.expr | None, base: int, nonempty: bool) -> str:
        """The code of the leftmost pile of ``row`` satisfying ``condition`` (None: any) and, when ``nonempty``,
        holding a card in the zone slots from ``base`` (-1: none); see :meth:`piles`."""
        first, size = self.t.rows[row]
        terms: list[ast.expr] = []
        if condition is None:
            lookup, piles = None, f"range({size})"
        else:
            lookup, piles, terms = self.pile_scan(row, condition)
        self.pile = row
        try:
            if lookup is not None:
                self.pile_var = name = self.t.lookup_name(lookup)
                kept = [f"({name} := {lookup}) >= 0", *([f"s.z[{base} + {name}]"] if nonempty else []), *(self.emit(term) for term in terms)]
                return f"({name} if {' and '.join(kept)} else -1)"
            if piles.startswith("range(") and size <= UNROLLED_PILES:
                code = "-1"
                for pile in range(size - 1, -1, -1):
                    self.pile_var = pile
                    kept = [*([f"s.z[{base + pile}]"] if nonempty else []), *(self.emit(term) for term in terms)]
                    code = f"{pile} if {' and '.join(kept) or 'True'} else ({code})"
                return f"({code})"
            self.pile_var = "P"
            kept = [*([f"s.z[{base} + P]"] if nonempty else []), *(self.emit(term) for term in terms)]
            return f"next((P for P in {piles} if {' and '.join(kept) or 'True'}), -1)"
        finally:
            self.pile, self.pile_var = None, "P"


def counted_against_zero(node: ast.Compare) -> tuple[ast.Call, bool] | None:
    """For a count (a function call) compared with 0 as ``> 0``, ``>= 1``, ``!= 0`` (whether there is one: True) or
    ``== 0``, ``< 1``, ``<= 0`` (whether there is none: False), either way round: the call and which; else None."""
    if len(node.ops) != 1:
        return None
    op, left, right = node.ops[0], node.left, node.comparators[0]
    flipped = {ast.Gt: ast.Lt, ast.Lt: ast.Gt, ast.GtE: ast.LtE, ast.LtE: ast.GtE, ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}
    if isinstance(left, ast.Constant) and type(op) in flipped:
        op, left, right = flipped[type(op)](), right, left
    if not (isinstance(right, ast.Constant) and type(right.value) is int and isinstance(left, ast.Call) and isinstance(left.func, ast.Name)):
        return None
    some = {(ast.Gt, 0): True, (ast.GtE, 1): True, (ast.NotEq, 0): True, (ast.Eq, 0): False, (ast.Lt, 1): False, (ast.LtE, 0): False}.get((type(op), right.value))
    return None if some is None else (left, some)


def reads_pile(node: ast.expr, tables: Tables) -> bool:
    """Whether ``node`` reads the pile in question (``pile``, a row of piles, a counter kept per pile)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and (sub.id == "pile" or sub.id in tables.rows or sub.id in tables.names.pile_counters):
            return True
    return False
