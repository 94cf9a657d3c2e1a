"""Bounds on what a rulebook template may compute: steps, sizes and memory.

A spec folder may bring its own templates, so a template is untrusted in what
it computes as well as in what it reads. Jinja's sandbox stops a template from
reaching Python's internals, but not from asking for ``{{ 'A' * 400000000 }}``
or three nested ``range(100000)`` loops. :class:`BoundedSandbox` meters a
render, deterministically, so the same template fails the same way on every
machine:

* **steps**: every loop iteration, function or macro call, filter and
  arithmetic operation counts one; a render may take :data:`MAX_STEPS`;
* **values**: no string, list or mapping a template makes (by an operator, a
  ``~`` concatenation, a call or a filter) may hold more than
  :data:`MAX_VALUE` characters or items, and no integer more than
  :data:`MAX_INT_BITS` bits; amplifying operations are checked *before* they
  run (``'A' * n``, ``2 ** n``, ``'%999999999s'``, ``x.ljust(n)``,
  ``|center(n)``, ``|indent(n)``, ``|batch(n)``...);
* **writing**: all the text a render writes, into its output or a captured
  block, may total :data:`MAX_WRITTEN` characters, and the rulebook it makes
  (typeset next, on every paper) :data:`MAX_DOCUMENT`;
* **memory**, as a backstop for anything the checks above do not foresee: on
  systems with ``RLIMIT_AS``, the process's address space may grow by at most
  :data:`MAX_RENDER_MEMORY` bytes while a template renders.

Going over a bound raises :class:`TemplateBudgetError` (a Jinja
``TemplateError``), which the rulebook reports as finding CG310. The metering
is added to the template's syntax tree when it is parsed (see
:class:`_Meter`), so cached compiled templates are metered too.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any

from jinja2 import TemplateError, nodes, pass_context
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import _PassArg
from jinja2.visitor import NodeTransformer

MAX_STEPS = 200_000
"""Loop iterations, calls, filters and operations in one render (a shipped rulebook takes a few hundred)."""
MAX_VALUE = 4_000_000
"""Characters (or items) in any one value a template makes (a whole bundled rulebook is about 100,000 characters)."""
MAX_WRITTEN = 40_000_000
"""Characters a render may write in all, counting blocks captured with ``{% set %}`` and macro bodies."""
MAX_DOCUMENT = 2_000_000
"""Characters in the rendered rulebook, which is then typeset on every paper (a shipped one is about 16,000;
typesetting 500,000 takes about half a second)."""
MAX_INT_BITS = 4096
"""Bits in any integer a template computes."""
MAX_RENDER_MEMORY = 1 << 30
"""Bytes the address space may grow by during a render (where the system can limit it)."""


class TemplateBudgetError(TemplateError):
    """A template asked for more work, text or memory than a rulebook may take."""


class Budget:
    """The meter of one render."""

    def __init__(self) -> None:
        self.steps = 0
        self.written = 0

    def step(self, count: int = 1) -> None:
        """Count ``count`` steps; raise when the render has taken too many."""
        self.steps += count
        if self.steps > MAX_STEPS:
            raise TemplateBudgetError(f"the template takes more than {MAX_STEPS:,} steps (loop iterations, calls, filters)")

    def write(self, count: int) -> None:
        """Count ``count`` characters written; raise when the render has written too much."""
        self.written += count
        if self.written > MAX_WRITTEN:
            raise TemplateBudgetError(f"the template writes more than {MAX_WRITTEN:,} characters")

    @staticmethod
    def value(result: Any) -> Any:
        """``result``, unless it is too big a value for a template to make."""
        if isinstance(result, bool):
            return result
        if isinstance(result, int):
            if result.bit_length() > MAX_INT_BITS:
                raise TemplateBudgetError(f"the template makes a number over {MAX_INT_BITS} bits")
        elif isinstance(result, (str, bytes, list, tuple, dict, set, frozenset)) and len(result) > MAX_VALUE:
            raise TemplateBudgetError(f"the template makes a value of {len(result):,} characters or items, over {MAX_VALUE:,}")
        return result


def _too_big(size: int, what: str) -> None:
    if size > MAX_VALUE:
        raise TemplateBudgetError(f"{what} would make {size:,} characters or items, over {MAX_VALUE:,}")


_PERCENT_WIDTH = re.compile(r"%(\([^)]*\))?[-#0 +]*(\*|\d{7,}|\d*\.(\*|\d{7,}))")
_BRACE_WIDTH = re.compile(r"\{[^{}]*:[^{}]*(\{|\d{7,})")


def _check_format(text: str) -> None:
    """Refuse a format string with a width or precision of a million or more, or one taken from the arguments."""
    if _PERCENT_WIDTH.search(text) or _BRACE_WIDTH.search(text):
        raise TemplateBudgetError("the template formats with too wide a field (a width of 1,000,000 or more, or one from the arguments)")


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _sized(value: Any) -> int:
    try:
        return len(value)
    except TypeError:
        return 1


def _check_join(items: Any, separator: Any) -> None:
    if isinstance(items, (str, list, tuple, dict, set, frozenset)):
        total = sum(_sized(item) if isinstance(item, str) else 16 for item in items) + _sized(separator) * len(items)
        _too_big(total, "joining")


def _check_replace(text: Any, old: Any, new: Any, count: Any = -1) -> None:
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str) and len(new) > len(old):
        found = text.count(old) if old else len(text) + 1
        if isinstance(count, int) and count >= 0:
            found = min(found, count)
        _too_big(len(text) + found * (len(new) - len(old)), "replacing")


def _check_str_method(text: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Check a call of ``text.<name>(...)`` that could make a huge string, before it runs."""
    first = args[0] if args else next(iter(kwargs.values()), None)
    if name in ("ljust", "rjust", "center", "zfill"):
        _too_big(_int(first), f"str.{name}")
    elif name == "expandtabs":
        _too_big(len(text) + text.count("\t") * max(_int(first), 8), "str.expandtabs")
    elif name in ("format", "format_map"):
        _check_format(text)
    elif name == "replace":
        _check_replace(text, *args[:3])
    elif name == "join":
        _check_join(first, text)


def _filter_guard(name: str) -> Callable[[tuple[Any, ...], dict[str, Any]], None] | None:
    """The check run before the built-in filter ``name``, if it can amplify its input.

    The check receives the filter's arguments without the context or
    evaluation context Jinja passes first to some filters: ``args[0]`` is the
    filtered value.
    """

    def arg(args: tuple[Any, ...], kwargs: dict[str, Any], index: int, key: str) -> Any:
        return args[index] if len(args) > index else kwargs.get(key)

    if name == "center":
        return lambda args, kwargs: _too_big(_int(arg(args, kwargs, 1, "width")), "|center")
    if name == "indent":

        def indent(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
            width = arg(args, kwargs, 1, "width")
            step = width if isinstance(width, int) and not isinstance(width, bool) else len(str(width or ""))
            text = str(args[0]) if args else ""
            _too_big(len(text) + (text.count("\n") + 1) * step, "|indent")

        return indent
    if name in ("batch", "slice"):
        return lambda args, kwargs: _too_big(_int(arg(args, kwargs, 1, "linecount" if name == "batch" else "slices")), f"|{name}")
    if name == "format":
        return lambda args, kwargs: _check_format(str(args[0]))
    if name == "replace":
        return lambda args, kwargs: _check_replace(str(args[0]) if args else "", arg(args, kwargs, 1, "old"), arg(args, kwargs, 2, "new"), arg(args, kwargs, 3, "count"))
    if name == "join":
        return lambda args, kwargs: _check_join(args[0] if args else (), arg(args, kwargs, 1, "d") or "")
    return None


def _budget_of(context: Context) -> Budget:
    environment = context.environment
    budget = getattr(environment, "budget", None)
    if not isinstance(budget, Budget):
        budget = Budget()
        setattr(environment, "budget", budget)
    return budget


@pass_context
def _meter_iteration(context: Context, iterable: Any) -> Any:
    """The iterable of a ``{% for %}`` loop, each of its items counted as a step."""
    budget = _budget_of(context)
    try:
        size = len(iterable)
    except TypeError:
        return _counted(iterable, budget)
    budget.step(size)
    return iterable


def _counted(iterable: Iterable[Any], budget: Budget) -> Iterator[Any]:
    for item in iterable:
        budget.step()
        yield item


@pass_context
def _meter_output(context: Context, value: Any, literal: int = 0) -> Any:
    """A value a template writes (``literal``: the length of the plain text written beside it)."""
    budget = _budget_of(context)
    budget.write(literal + (len(value) if isinstance(value, str) else 16))
    return Budget.value(value)


@pass_context
def _meter_value(context: Context, value: Any) -> Any:
    """A value made by ``~`` concatenation."""
    _budget_of(context).step()
    return Budget.value(value)


GETTEXT_NAMES = ("_", "gettext", "ngettext", "pgettext", "npgettext")
"""The translation functions Jinja's i18n extension installs: each %-formats the text it returns."""
METER_ITERATION = "cardgen_meter_iteration"
METER_OUTPUT = "cardgen_meter_output"
METER_VALUE = "cardgen_meter_value"


def _filter(node: nodes.Expr, name: str, *args: nodes.Expr) -> nodes.Filter:
    return nodes.Filter(node, name, list(args), [], None, None, lineno=node.lineno)


class _Meter(NodeTransformer):
    """Rewrites a parsed template so that loops, writes and concatenations go through the meters."""

    def visit_For(self, node: nodes.For) -> nodes.Node:
        """Count each item a loop runs over."""
        visited = self.generic_visit(node)
        assert isinstance(visited, nodes.For) and isinstance(visited.iter, nodes.Expr)
        visited.iter = _filter(visited.iter, METER_ITERATION)
        return visited

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        """Check the size of every ``~`` concatenation."""
        visited = self.generic_visit(node)
        assert isinstance(visited, nodes.Expr)
        return _filter(visited, METER_VALUE)

    def visit_Output(self, node: nodes.Output) -> nodes.Node:
        """Count every character written (plain text as one sum, so it keeps its place and its escaping)."""
        visited = self.generic_visit(node)
        assert isinstance(visited, nodes.Output)
        literal = sum(len(child.data) for child in visited.nodes if isinstance(child, nodes.TemplateData))
        metered: list[nodes.Expr] = []
        if literal:
            metered.append(_filter(nodes.Const("", lineno=visited.lineno), METER_OUTPUT, nodes.Const(literal)))
        for child in visited.nodes:
            metered.append(child if isinstance(child, nodes.TemplateData) else _filter(child, METER_OUTPUT))
        visited.nodes = metered
        return visited


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, metered: see the module's description."""

    intercepted_binops = frozenset({"*", "**", "+", "%", "//"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budget = Budget()
        self.globals.pop("lipsum", None)  # placeholder text by the paragraph: nothing a rulebook needs
        for name, function in list(self.filters.items()):
            self.filters[name] = self._metered_filter(name, function)
        self.filters[METER_ITERATION] = _meter_iteration
        self.filters[METER_OUTPUT] = _meter_output
        self.filters[METER_VALUE] = _meter_value

    def add_filter(self, name: str, function: Callable[..., Any]) -> None:
        """Register a filter, metered like the built-in ones."""
        self.filters[name] = self._metered_filter(name, function)

    def _metered_filter(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        guard = _filter_guard(name)
        passed = 1 if _PassArg.from_obj(function) is not None else 0
        budget_holder = self

        @wraps(function)
        def metered(*args: Any, **kwargs: Any) -> Any:
            budget_holder.budget.step()
            if guard is not None:
                guard(args[passed:], kwargs)
            return Budget.value(function(*args, **kwargs))

        return metered

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        metered = _Meter().visit(tree)
        assert isinstance(metered, nodes.Template)
        metered.set_environment(self)
        return metered

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """Jinja's sandboxed ``str.format``, refused for a format string with too wide a field."""
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            _check_format(value.__self__)
        return wrapped

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        """Run ``left <operator> right`` after checking it cannot make too big a value."""
        self.budget.step()
        if operator == "*":
            for sequence, times in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and isinstance(times, int):
                    _too_big(len(sequence) * max(times, 0), "repeating")
            if isinstance(left, int) and isinstance(right, int) and left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise TemplateBudgetError(f"the template makes a number over {MAX_INT_BITS} bits")
        elif operator == "**":
            if isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right > 0 and right * abs(left).bit_length() > MAX_INT_BITS:
                raise TemplateBudgetError(f"the template makes a number over {MAX_INT_BITS} bits")
        elif operator == "%" and isinstance(left, str):
            _check_format(left)
            for argument in right.values() if isinstance(right, dict) else right if isinstance(right, tuple) else (right,):
                if isinstance(argument, int) and argument > MAX_VALUE:
                    raise TemplateBudgetError("the template formats with too wide a field")
        return Budget.value(super().call_binop(context, operator, left, right))

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's signature)
        """Call ``__obj`` from a template after checking the call cannot make too big a value."""
        __self.budget.step()
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, str):
            _check_str_method(owner, getattr(__obj, "__name__", ""), args, kwargs)
        elif any(__obj is __self.globals.get(name) for name in GETTEXT_NAMES):
            for argument in args:  # new-style gettext formats the message it is given with `%`
                if isinstance(argument, str):
                    _check_format(argument)
        return Budget.value(super().call(__context, __obj, *args, **kwargs))


_MEMORY_LOCK = threading.Lock()
_MEMORY_DEPTH = [0]


def _address_space() -> int | None:
    """The process's address space in bytes, where the system tells (Linux)."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


@contextmanager
def memory_bounded() -> Iterator[None]:
    """Let the address space grow by at most :data:`MAX_RENDER_MEMORY` while the block runs (RLIMIT_AS, where there is one).

    An allocation past the bound raises :class:`MemoryError` in the block, which
    the caller reports. Nested and concurrent uses share one bound, set by the
    outermost.
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    limit_kind = getattr(resource, "RLIMIT_AS", None)
    size = _address_space()
    with _MEMORY_LOCK:
        outermost = _MEMORY_DEPTH[0] == 0
        _MEMORY_DEPTH[0] += 1
        previous = None
        if outermost and limit_kind is not None and size is not None:
            soft, hard = resource.getrlimit(limit_kind)
            wanted = size + MAX_RENDER_MEMORY
            if hard != resource.RLIM_INFINITY:
                wanted = min(wanted, hard)
            if soft == resource.RLIM_INFINITY or soft > wanted:
                try:
                    resource.setrlimit(limit_kind, (wanted, hard))
                    previous = (soft, hard)
                except (ValueError, OSError):
                    previous = None
    try:
        yield
    finally:
        with _MEMORY_LOCK:
            _MEMORY_DEPTH[0] -= 1
            if previous is not None and limit_kind is not None:
                resource.setrlimit(limit_kind, previous)


def render_bounded(render: Callable[[], str], environment: Any) -> str:
    """Run ``render`` (a template's render) with a fresh budget on ``environment`` and memory bounded.

    Running out of memory or of recursion depth is reported as a
    :class:`TemplateBudgetError` too.
    """
    if isinstance(environment, BoundedSandbox):
        environment.budget = Budget()
    try:
        with memory_bounded():
            document = render()
    except MemoryError as error:
        raise TemplateBudgetError(f"the template needs more than {MAX_RENDER_MEMORY >> 20} MiB of memory") from error
    except RecursionError as error:
        raise TemplateBudgetError("the template recurses too deeply") from error
    if len(document) > MAX_DOCUMENT:
        raise TemplateBudgetError(f"the template makes a rulebook of {len(document):,} characters, over {MAX_DOCUMENT:,}")
    return document
