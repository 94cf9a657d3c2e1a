"""Line breaks kept between layouts: a paragraph whose text, style and widths were broken before is not broken again.

Breaking a paragraph into lines (reportlab's ``Paragraph.breakLines``) is most
of a rulebook's typesetting. A rebuild after editing one card's text lays out
the same paragraphs as the build before, but one. So the state the breaking
left a paragraph in is kept, and a paragraph met again is given that state
instead of being broken again: in the process, by a process that rebuilds
(:func:`keep_line_breaks`: ``cardgen watch``, the bench's warm rebuild), and in
the build's cache, one entry per book (:func:`line_pack`), for the next build
in another process.

What a wrap leaves depends on the paragraph's state before it, which platypus
changes as it goes (a wrapped paragraph's fragments become its words; a split
rewrites the fragment it split in). So an entry is kept only for a paragraph
made from its text (or from a fragment a markup-free text gives: see
:class:`cardgen.rulebook.paragraphs.Paragraphs`) and wrapped only, never split,
drawn or measured since it was made. Its key is everything that state is a
function of: the paragraph's class, its text (or plain text, boldness and kind),
its bullet text, its style (every attribute, by value), and the widths of every
wrap so far (a wrap's height does not change the lines). Fonts, the hyphenator
and reportlab are part of cardgen's code fingerprint, which every cache key
holds, and the same in one process. What an entry holds is a pickled copy of
every attribute the wrap set or replaced, and the fragments and lines whatever
they are, so a paragraph given an entry is in the state its own wrap would have
left it, down to the objects it holds being its own.

Only paragraphs of several fragments (mixed fonts, links: platypus breaks them
word by word) are kept: one of a single fragment is broken about as fast as its
copy is written and read back (measured on the shipped rulebooks), so keeping
it would only cost. A book keeps at most :data:`MAX_PACK_BYTES` in the cache;
the process at most :data:`MAX_BYTES`, the least recently used dropped first.
"""

from __future__ import annotations

import hashlib
import pickle
import zlib
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Iterator

from reportlab.platypus import Flowable, Paragraph

MAX_BYTES = 24 * 1024 * 1024
"""The most the kept lines of a process take (pickled); the least recently used go first beyond it."""
MAX_PACK_BYTES = 2 * 1024 * 1024
"""The most one book's kept lines take in a build's cache (before compression); a longer book keeps its first paragraphs'."""
PACK_KIND = "rulebook-line-breaks-1"
"""The first part of a book's line pack's cache key (and its format's version)."""
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
    if value is None or type(value) in (str, int, float, bool):
        return value
    if callable(value) and not isinstance(value, type):
        return ("callable", getattr(value, "__module__", ""), getattr(value, "__qualname__", repr(value)))
    rgba = getattr(value, "rgba", None)
    if callable(rgba):
        return ("colour", type(value).__name__, tuple(rgba()))
    return value if isinstance(value, (str, int, float, bool, type(None), tuple)) else ("repr", type(value).__name__, repr(value))


_style_keys: dict[int, tuple[Any, dict[str, Any], str]] = {}


def style_key(style: Any) -> str:
    """A digest of every attribute of a paragraph style (its parent's are copied into it), by value.

    Remembered for the style object while its attributes stay equal to those the digest was made from (one
    comparison of two dicts, not a digest made afresh for each of a book's paragraphs)."""
    attributes = vars(style)
    known = _style_keys.get(id(style))
    if known is not None and known[0] is style and known[1] == attributes:
        return known[2]
    values = tuple(sorted((name, _value(value)) for name, value in attributes.items() if name != "parent"))
    key = hashlib.sha256(repr(values).encode("utf-8")).hexdigest()
    if len(_style_keys) > 256:  # (a book's styles are a few dozen; the footer makes one per page)
        _style_keys.clear()
    _style_keys[id(style)] = (style, dict(attributes), key)
    return key


class LinePack:
    """The kept lines of one book in a build's cache, for a later process (see :func:`line_pack`)."""

    def __init__(self, stored: dict[str, bytes]) -> None:
        self.stored = stored
        self.kept: dict[str, bytes] = {}
        self.size = 0
        self.added = False

    def get(self, digest: str) -> bytes | None:
        """The entry ``digest`` of the stored pack, kept for the next one."""
        data = self.stored.get(digest)
        if data is not None:
            self.keep(digest, data, added=False)
        return data

    def keep(self, digest: str, data: bytes, added: bool = True) -> None:
        """Put an entry in the pack written at the end (up to :data:`MAX_PACK_BYTES`); an ``added`` one replaces
        what the stored pack had under ``digest`` (an entry that did not read back)."""
        old = self.kept.get(digest)
        if old is not None and (not added or old == data):
            return
        size = self.size - (len(old) if old is not None else 0) + len(data)
        if size <= MAX_PACK_BYTES:
            self.kept[digest] = data
            self.size = size
            self.added = self.added or added

    def payload(self) -> bytes:
        """The entries this layout used, as stored: digest, length and bytes of each, compressed."""
        parts = [b"%s %d\n%s" % (digest.encode("ascii"), len(data), data) for digest, data in self.kept.items()]
        return zlib.compress(b"".join(parts), 1)

    @classmethod
    def read(cls, payload: bytes | None) -> "LinePack":
        """The pack of a stored payload (empty for none, or for anything malformed: it only costs the breaking)."""
        stored: dict[str, bytes] = {}
        try:
            data = zlib.decompress(payload) if payload else b""
        except zlib.error:
            data = b""
        at = 0
        while at < len(data):
            end = data.find(b"\n", at)
            head = data[at:end].split(b" ") if end >= 0 else []
            size = int(head[1]) if len(head) == 2 and head[1].isdigit() else -1
            if size < 0 or end + 1 + size > len(data):
                return cls({})
            stored[head[0].decode("ascii", "replace")] = data[end + 1 : end + 1 + size]
            at = end + 1 + size
        return cls(stored)


_pack: list[LinePack | None] = [None]


@contextmanager
def line_pack(cache: Any, *parts: object) -> Iterator[None]:
    """Within the scope, paragraphs' lines are read from and kept in the entry of ``cache`` (a build's
    :class:`cardgen.cache.ArtefactCache`) named by ``parts`` (the book's language and paper), written back when
    the layout added an entry or left one unused. A layout that does not finish writes nothing."""
    key = cache.key(PACK_KIND, *parts)
    pack = LinePack.read(cache.get(key))
    before = _pack[0]
    _pack[0] = pack
    try:
        yield
    finally:
        _pack[0] = before
    if pack.added or set(pack.kept) != set(pack.stored):
        cache.put(key, pack.payload())


def pack_key(cache: Any, *parts: object) -> str:
    """The cache key of the line pack of ``parts`` (to keep it through a build that reuses the book's PDF)."""
    return str(cache.key(PACK_KIND, *parts))


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
        pack = _pack[0]
        if kept is None or not (_enabled[0] or pack is not None):
            self._kept = None  # (a wrap not followed leaves a state no key names)
            return super().wrap(availWidth, availHeight)
        if len(kept) == 4:  # (its first wrap: the style is read now, as the wrap reads it)
            if len(self.frags) < 2:  # (one fragment: broken as fast as a kept copy reads back, so none is kept)
                self._kept = None
                return super().wrap(availWidth, availHeight)
            kept = (type(self).__module__, type(self).__qualname__, *kept, style_key(self.style), ())
        key = kept[:-1] + (kept[-1] + (availWidth,),)
        digest = hashlib.sha256(repr(key).encode("utf-8")).hexdigest() if pack is not None else ""
        stored = _memo.get(key) if _enabled[0] else None
        if stored is not None:
            _memo.move_to_end(key)
            if pack is not None:
                pack.keep(digest, stored, added=pack.stored.get(digest) != stored)
        elif pack is not None:
            stored = pack.get(digest)
            if stored is not None and _enabled[0]:
                _remember(key, stored)
        if stored is not None:
            try:
                state = pickle.loads(stored)
            except Exception:  # (an entry that does not read back: broken afresh)
                state = None
            if isinstance(state, dict):
                self.__dict__.update(state)
                self._kept = key
                _counts["hits"] += 1
                return self.width, self.height
        _counts["misses"] += 1
        before = dict(self.__dict__)
        size = super().wrap(availWidth, availHeight)
        if getattr(self.__dict__.get("blPara"), "kind", 0) != 1:  # (one fragment: broken as fast as a copy reads back)
            self._kept = None
            return size
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
        if _enabled[0]:
            _remember(key, data)
        if pack is not None:
            pack.keep(digest, data)
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
