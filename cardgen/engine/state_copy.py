"""A game's State declares its fields once; its ``clone()`` and ``fingerprint()`` are generated from the declaration.

Each field of a State class (every name in its ``__slots__``) is declared
with how it is copied:

* ``shared``: the same object in the copy (the game, tuples, lists that never change after setup);
* ``values``: numbers, flags and other immutable values;
* ``lists``: a flat list, copied;
* ``nested``: a list of lists, each inner list copied (``NAME*N``: always N inner lists, copied one by one
  without a loop, which is faster for a small fixed N such as a two-player game's two hands);
* ``dicts``: a flat mapping, copied.

A slot declared twice or not at all is a ``TypeError`` when the class is
made (:func:`state_methods` runs in its body), so a field added to a State cannot be left out of its copies. The
fingerprint lists, in order, what describes the position (fields that only
cache what others say are left out). Each entry is a field name, copied into
the fingerprint by its kind (a list as a tuple, a list of lists as a tuple of
tuples), or one of these forms:

* ``"tuple:NAME"``: a shared list, as a tuple;
* ``"tail:NAME:START"``: what is left of the sequence NAME from the index in the field START (a pile's undrawn cards);
* ``"sorted-each:NAME"``: each inner list of NAME, sorted, as its own entry (a hand whose order does not matter).

The name in ``values`` and the others is read as ``__slots__`` spells it; a
fingerprint entry names a field without its ``*N``.

Both methods are generated as Python source and compiled once per class
(the copy has the class of the State copied), so
a copy runs as fast as one written out field by field (``bench/run.py --only
copies`` measures it).
"""

from __future__ import annotations

from typing import Any

_KINDS = ("shared", "values", "lists", "nested", "dicts")


def _copy_expression(kind: str, name: str, size: int | None) -> str:
    source = f"self.{name}"
    if kind == "lists":
        return f"{source}[:]"
    if kind == "nested" and size is not None:
        return "[" + ", ".join(f"{source}[{i}][:]" for i in range(size)) + "]"
    if kind == "nested":
        return f"[inner[:] for inner in {source}]"
    if kind == "dicts":
        return f"{source}.copy()"
    return source


def _fingerprint_expression(entry: str, kinds: dict[str, str], sizes: dict[str, int]) -> str:
    form, _, rest = entry.partition(":")
    if rest:
        if form == "tuple" and rest in kinds:
            return f"tuple(self.{rest})"
        if form == "tail":
            name, _, start = rest.partition(":")
            if name in kinds and start in kinds:
                return f"self.{name}[self.{start}:]"
        if form == "sorted-each" and rest in kinds:
            if rest in sizes:
                return ", ".join(f"tuple(sorted(self.{rest}[{i}]))" for i in range(sizes[rest]))
            return f"*(tuple(sorted(inner)) for inner in self.{rest})"
        raise TypeError(f"fingerprint entry {entry!r}: not a form of a declared field (tuple:NAME, tail:NAME:START, sorted-each:NAME)")
    kind = kinds.get(entry)
    if kind is None:
        raise TypeError(f"fingerprint entry {entry!r} is not a declared field")
    if kind == "lists":
        return f"tuple(self.{entry})"
    if kind == "nested":
        return f"tuple(tuple(inner) for inner in self.{entry})"
    if kind == "dicts":
        return f"tuple(sorted(self.{entry}.items()))"
    return f"self.{entry}"


def state_methods(
    slots: tuple[str, ...],
    *,
    shared: str = "",
    values: str = "",
    lists: str = "",
    nested: str = "",
    dicts: str = "",
    fingerprint: str,
) -> tuple[Any, Any]:
    """``clone`` and ``fingerprint`` for a State class whose ``__slots__`` are ``slots``, from the declared fields.

    Field names are space-separated. Used in the class body, right after ``__slots__``::

        clone, fingerprint = state_methods(__slots__, shared="game", lists="hands", values="turn", fingerprint="hands turn")
    """
    declared = {"shared": shared.split(), "values": values.split(), "lists": lists.split(), "nested": nested.split(), "dicts": dicts.split()}
    kinds: dict[str, str] = {}
    sizes: dict[str, int] = {}
    for kind in _KINDS:
        for spelled in declared[kind]:
            name, star, count = spelled.partition("*")
            if star:
                if kind != "nested" or not count.isdigit():
                    raise TypeError(f"field {spelled!r}: only a nested list may give its fixed length (NAME*N)")
                sizes[name] = int(count)
            if name in kinds:
                raise TypeError(f"field {name!r} declared twice ({kinds[name]} and {kind})")
            kinds[name] = kind
    missing, extra = sorted(set(slots) - set(kinds)), sorted(set(kinds) - set(slots))
    if missing or extra:
        raise TypeError(f"the declared fields differ from __slots__ (undeclared: {missing}, not slots: {extra})")
    clone_lines = [
        "def clone(self):",
        '    """An independent copy, generated from the declared fields (:mod:`cardgen.engine.state_copy`)."""',
        "    other = new(type(self))",
        *(f"    other.{name} = {_copy_expression(kinds[name], name, sizes.get(name))}" for name in slots),
        "    return other",
    ]
    entries = ", ".join(_fingerprint_expression(entry, kinds, sizes) for entry in fingerprint.split())
    fingerprint_lines = [
        "def fingerprint(self):",
        '    """The position as a hashable tuple, generated from the declared fingerprint (:mod:`cardgen.engine.state_copy`)."""',
        f"    return ({entries},)",
    ]
    namespace: dict[str, Any] = {"new": object.__new__}
    source = "\n".join(clone_lines) + "\n\n" + "\n".join(fingerprint_lines) + "\n"
    exec(compile(source, "<generated state copies>", "exec"), namespace)
    return namespace["clone"], namespace["fingerprint"]
