"""Line breaks kept between layouts: a paragraph whose text, style and widths were broken before is not broken again.

Breaking a paragraph into lines (reportlab's ``Paragraph.breakLines``) is most
of a rulebook's typesetting. A rebuild after editing one card's text lays out
the same paragraphs as the build before, but one; ``cardgen watch`` rebuilds in
one process, so that process keeps, for every paragraph it broke, the state the
breaking left the paragraph in, and gives a paragraph met again that state
instead of breaking it again.

What a wrap leaves depends on the paragraph's state before it, which platypus
changes as it goes (a wrapped paragraph's fragments become its words; a split
rewrites the fragment it split in). So an entry is kept only for a paragraph
made from its text (or from a fragment a markup-free text gives: see
:class:`cardgen.rulebook.paragraphs.Paragraphs`) and wrapped only, never split
or drawn since it was made. Its key is everything that state is a function of:
the paragraph's class, its text (or plain text, boldness and kind), its bullet
text, its style (every attribute, by value), and the widths of every wrap so far
(a wrap's height does not change the lines). Fonts and the hyphenator are
cardgen's code and reportlab's, the same in one process. What an entry holds is
a pickled copy of every attribute the wrap set or replaced, and the fragments
and lines whatever they are, so a paragraph given an entry is in the state its
own wrap would have left it, down to the objects it holds being its own.

Kept only in a process that turned it on (:func:`keep_line_breaks`: ``cardgen
watch``, the bench's warm rebuild): a one-shot build never meets a paragraph
twice across builds, and copying every paragraph's lines would only cost it.
Entries are bounded (:data:`MAX_BYTES`), the least recently used dropped first.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Iterator

from reportlab.platypus import Flowable, Paragraph

MAX_BYTES = 24 * 1024 * 1024
"""The most the kept lines of a process take (pickled); the least recently used go first beyond it."""
_NOT_STATE = frozenset({"canv", "_frame", "_postponed", "_kept", "style"})
"""Attributes platypus or this module set from outside a wrap, or the paragraph's own style: never copied."""

_memo: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
_size = [0]
_enabled = [False]
_counts = {"hits": 0, "misses": 0}


@contextmanager
def keep_line_breaks(enabled: bool = True) -> Iterator[None]:
    """Within the scope, paragraphs' line breaks are kept and reused (see the module doc); the entries stay for the next scope."""
    before = _enabled[0]
    _enabled[0] = enabled
    try:
        yield
    finally:
        _enabled[0] = before


def forget_line_breaks() -> None:
    """Drop every kept entry (tests; a process that wants its memory back)."""
    _memo.clear()
    _size[0] = 0


def line_break_counts() -> dict[str, int]:
    """How many wraps were given kept lines and how many were broken since the process began (tests, benches)."""
    return dict(_counts)


def _value(value: Any) -> Any:
    """A style attribute as a key part, by value: colours by their components, callables by their qualified name."""
    if callable(value) and not isinstance(value, type):
        return ("callable", getattr(value, "__module__", ""), getattr(value, "__qualname__", repr(value)))
    rgba = getattr(value, "rgba", None)
    if callable(rgba):
        return ("colour", type(value).__name__, tuple(rgba()))
    return value if isinstance(value, (str, int, float, bool, type(None), tuple)) else ("repr", type(value).__name__, repr(value))


_style_keys: dict[int, tuple[Any, dict[str, Any], tuple[Any, ...]]] = {}


def style_key(style: Any) -> tuple[Any, ...]:
    """Every attribute of a paragraph style (its parent's are copied into it), by value.

    Remembered for the style object while its attributes stay equal to those the key was made from (one
    comparison of two dicts, not a key made afresh for each of a book's paragraphs)."""
    attributes = vars(style)
    known = _style_keys.get(id(style))
    if known is not None and known[0] is style and known[1] == attributes:
        return known[2]
    key = tuple(sorted((name, _value(value)) for name, value in attributes.items() if name != "parent"))
    if len(_style_keys) > 256:  # (a book's styles are a few dozen; the footer makes one per page)
        _style_keys.clear()
    _style_keys[id(style)] = (style, dict(attributes), key)
    return key


class KeptParagraph(Paragraph):
    """A platypus paragraph whose line breaks are kept between layouts (see the module doc)."""

    def __init__(
        self,
        text: Any,
        style: Any = None,
        bulletText: Any = None,  # noqa: N803 (platypus's names)
        frags: Any = None,
        caseSensitive: int = 1,  # noqa: N803
        encoding: str = "utf8",
        kept_as: tuple[Any, ...] | None = None,
    ) -> None:
        super().__init__(text, style, bulletText, frags, caseSensitive, encoding)
        made = kept_as if frags is not None else ("text", text)
        self._kept: tuple[Any, ...] | None = (made, repr(bulletText), caseSensitive, encoding) if made is not None else None
        """What this paragraph was made from, until its first wrap; then its key; None once its state is no key's."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (platypus's names)
        """Lay the paragraph out at ``availWidth``: the kept lines when this very state was broken before, else reportlab's."""
        kept = self.__dict__.get("_kept")
        if kept is None or not _enabled[0]:
            self._kept = None  # (a wrap not followed leaves a state no key names)
            return super().wrap(availWidth, availHeight)
        if len(kept) == 4:  # (its first wrap: the style is read now, as the wrap reads it)
            kept = (type(self).__module__, type(self).__qualname__, *kept, style_key(self.style), ())
        key = kept[:-1] + (kept[-1] + (availWidth,),)
        stored = _memo.get(key)
        if stored is not None:
            _memo.move_to_end(key)
            self.__dict__.update(pickle.loads(stored))
            self._kept = key
            _counts["hits"] += 1
            return self.width, self.height
        _counts["misses"] += 1
        before = dict(self.__dict__)
        size = super().wrap(availWidth, availHeight)
        state = {
            name: value
            for name, value in self.__dict__.items()
            if name not in _NOT_STATE and (name in ("frags", "blPara") or name not in before or before[name] is not value)
        }
        try:
            data = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
        except Exception:  # (a fragment holding something that does not pickle: this paragraph is not kept)
            self._kept = None
            return size
        _remember(key, data)
        self._kept = key
        return size

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803 (platypus's names)
        """reportlab's split; the paragraph's state from then on is no longer one a key names."""
        self._kept = None
        return super().split(availWidth, availHeight)

    def draw(self) -> None:
        """reportlab's drawing; the paragraph's state from then on is no longer one a key names."""
        self._kept = None
        super().draw()

    def minWidth(self) -> float:  # noqa: N802 (platypus's names)
        """reportlab's minimum width; the paragraph's state from then on is no longer one a key names."""
        self._kept = None
        return float(super().minWidth())


def _remember(key: tuple[Any, ...], data: bytes) -> None:
    old = _memo.pop(key, None)
    if old is not None:
        _size[0] -= len(old)
    _memo[key] = data
    _size[0] += len(data)
    while _size[0] > MAX_BYTES and _memo:
        _, dropped = _memo.popitem(last=False)
        _size[0] -= len(dropped)
