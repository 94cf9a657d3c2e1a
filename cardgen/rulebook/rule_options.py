"""Rule options folded into the rulebook's words: the generated rules read as the spec's chosen options play.

A spec picks one choice of each rule option (``options:``, or the option's default), and the engine plays only
that choice, so "only when the rule option “Protection” is set to “in_advance”" tells a player nothing they can
act on. Before an expression is put into words, every comparison of ``options.NAME`` with a text is replaced by
its truth at the chosen value, and what that decides is simplified (``and``/``or``, ``not``, ``A if C else B``).
The rulebook then leaves out a condition that always holds and an option that is never offered; the variants
themselves are the designer's prose to describe.
"""

from __future__ import annotations

import ast
from typing import Mapping


class _FoldOptions(ast.NodeTransformer):
    def __init__(self, chosen: Mapping[str, str]) -> None:
        self.chosen = chosen

    def _option(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "options" and node.attr in self.chosen:
            return self.chosen[node.attr]
        return None

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            return node
        left, right = node.left, node.comparators[0]
        for option, other in ((self._option(left), right), (self._option(right), left)):
            if option is not None and isinstance(other, ast.Constant) and isinstance(other.value, str):
                equal = option == other.value
                return ast.Constant(equal if isinstance(node.ops[0], ast.Eq) else not equal)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        self.generic_visit(node)
        deciding = isinstance(node.op, ast.Or)  # the value that decides the whole: True for `or`, False for `and`
        kept: list[ast.expr] = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, bool):
                if value.value is deciding:
                    return ast.Constant(deciding)
                continue
            kept.append(value)
        if not kept:
            return ast.Constant(not deciding)
        return kept[0] if len(kept) == 1 else ast.BoolOp(op=node.op, values=kept)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, bool):
            return ast.Constant(not node.operand.value)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant) and isinstance(node.test.value, bool):
            return node.body if node.test.value else node.orelse
        return node


def fold_options(tree: ast.expr, chosen: Mapping[str, str]) -> ast.expr:
    """``tree`` with every comparison of a rule option with a text decided by ``chosen`` (option -> choice)."""
    if not chosen:
        return tree
    folded = _FoldOptions(chosen).visit(tree)
    assert isinstance(folded, ast.expr)
    return ast.fix_missing_locations(folded)


def always(tree: ast.expr | None) -> bool | None:
    """True or False when a (folded) condition is decided before play by the options alone; None otherwise."""
    if isinstance(tree, ast.Constant) and isinstance(tree.value, bool):
        return tree.value
    return None
