"""Faster stand-ins for reportlab's pure-Python "accelerator" functions, with identical output.

reportlab ships C versions of a few hot helpers in an optional extension; without
it (the case here) it falls back to Python loops in ``reportlab.lib.rl_accel``.
Profiles of ``cardgen build`` put those fallbacks near the top: ``fp_str`` (every
number written into a PDF content stream), ``asciiBase85Encode`` (font and image
streams), ``escapePDF`` (every string drawn) and ``instanceStringWidthTTF``
(every text measurement, ours and platypus's line breaking).

This module replaces them with versions that return exactly the same values:

* ``fp_str``: the original, memoised per number (equal numbers always format alike);
* ``asciiBase85Encode``: :func:`base64.a85encode` (C), plus the ``~>`` terminator;
* ``escapePDF``: one :meth:`str.translate` over a 256-entry table;
* ``instanceStringWidthTTF``: the glyph-width sum memoised per (face, text), then
  the same ``0.001 * size * total`` arithmetic.

Anything unusual (a non-number, a character above U+00FF, a non-hashable
argument) goes to the original function, so behaviour never changes, only speed.
:func:`install` is called when :mod:`cardgen.render.fonts` is imported; setting the
environment variable ``CARDGEN_NO_RL_SPEEDUPS=1`` leaves reportlab untouched.
"""

from __future__ import annotations

import base64
import os
import sys
from typing import Any, Callable

from reportlab.lib import rl_accel

_ORIGINAL: dict[str, Callable[..., Any]] = {
    name: getattr(rl_accel, name)
    for name in ("fp_str", "asciiBase85Encode", "escapePDF", "instanceStringWidthTTF")
}
_CACHE_LIMIT = 500_000
_FP: dict[Any, str] = {}
_WIDTHS: dict[tuple[Any, str], Any] = {}
_fp_one = _ORIGINAL["fp_str"]
_NUMBER_TYPES = (int, float)


def fp_str(*args: Any) -> str:
    """Space-separated PDF numbers, exactly as reportlab's ``fp_str`` writes them."""
    if len(args) == 1 and type(args[0]) not in _NUMBER_TYPES:
        first = args[0]
        if isinstance(first, (list, tuple)):
            args = tuple(first)
        else:
            return _fp_one(*args)
    cache = _FP
    parts = []
    for value in args:
        if type(value) not in _NUMBER_TYPES:
            return _fp_one(*args)
        text = cache.get(value)
        if text is None:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            text = cache[value] = _fp_one(value)
        parts.append(text)
    return " ".join(parts)


def ascii_base85_encode(data: Any) -> str:
    """ASCII-85 with the ``~>`` terminator, as reportlab's ``asciiBase85Encode``."""
    if isinstance(data, str):
        try:
            raw = data.encode("latin-1")
        except UnicodeEncodeError:
            return str(_ORIGINAL["asciiBase85Encode"](data))
    elif isinstance(data, (bytes, bytearray)):
        raw = bytes(data)
    else:
        return str(_ORIGINAL["asciiBase85Encode"](data))
    return base64.a85encode(raw).decode("ascii") + "~>"


_ESCAPES: dict[int, str] = {}
for _code in range(256):
    if _code < 32 or _code >= 127:
        _ESCAPES[_code] = "\\%03o" % _code
    elif chr(_code) in "\\()":
        _ESCAPES[_code] = "\\" + chr(_code)
del _code


def escape_pdf(text: Any) -> str:
    """A PDF string literal's body, as reportlab's ``escapePDF``."""
    if isinstance(text, (bytes, bytearray)):
        return bytes(text).decode("latin-1").translate(_ESCAPES)
    if isinstance(text, str) and (text.isascii() or max(map(ord, text)) < 256):
        return text.translate(_ESCAPES)
    return str(_ORIGINAL["escapePDF"](text))


def instance_string_width_ttf(self: Any, text: Any, size: float, encoding: str = "utf8") -> Any:
    """Width of ``text`` in a TrueType font at ``size``, as reportlab's ``instanceStringWidthTTF``."""
    if not isinstance(text, str):
        text = text.decode(encoding or "utf8")
    face = self.face
    key = (face, text)
    total = _WIDTHS.get(key)
    if total is None:
        get = face.charWidths.get
        default = face.defaultWidth
        total = sum(get(ord(ch), default) for ch in text)
        if len(_WIDTHS) > _CACHE_LIMIT:
            _WIDTHS.clear()
        _WIDTHS[key] = total
    return 0.001 * size * total


_FAST: dict[str, Callable[..., Any]] = {
    "fp_str": fp_str,
    "asciiBase85Encode": ascii_base85_encode,
    "escapePDF": escape_pdf,
    "instanceStringWidthTTF": instance_string_width_ttf,
}


def _swap(table_from: dict[str, Callable[..., Any]], table_to: dict[str, Callable[..., Any]]) -> None:
    for name, new in table_to.items():
        old = table_from[name]
        if getattr(rl_accel, name) is old:
            setattr(rl_accel, name, new)
        for module_name, module in list(sys.modules.items()):
            if module_name.startswith("reportlab.") and getattr(module, name, None) is old:
                setattr(module, name, new)


def installed() -> bool:
    """Whether the fast versions are in place."""
    return rl_accel.fp_str is fp_str


def install() -> None:
    """Put the fast versions in place (in rl_accel and every reportlab module already imported).

    Modules imported later pick them up from ``rl_accel``. Only the pure-Python
    fallbacks are replaced: if reportlab's C extension is present, nothing changes.
    """
    if os.environ.get("CARDGEN_NO_RL_SPEEDUPS") or installed():
        return
    if getattr(_ORIGINAL["fp_str"], "__module__", "") != rl_accel.__name__:
        return  # the C accelerator is installed; it is faster still
    _swap(_ORIGINAL, _FAST)


def uninstall() -> None:
    """Restore reportlab's own functions (benchmarks use this to time the vanilla floor)."""
    if installed():
        _swap(_FAST, _ORIGINAL)
