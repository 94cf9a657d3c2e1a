"""Text layout: wrap a string into a box, with inline ``{icon}`` tokens.

:func:`layout_text` returns positioned primitives (text runs and icon groups)
plus an :class:`Overflow` report, so a caller can turn overflow or missing
glyphs into a validation finding instead of silently clipping. All lengths are
mm; the font size is in pt.

Markup: ``{name}`` is an icon from the :class:`~cardgen.render.icons.IconRegistry`;
``{{`` and ``}}`` are literal braces; ``\\n`` forces a line break. An icon is
measured as a square one em wide and drawn in the line's em box (from the
ascender line to the descender line, which for DejaVu is exactly one em).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, TypeAlias

from cardgen.limits import MAX_FIT_LAYOUTS
from cardgen.render.fonts import DEFAULT_FONT, ascent, descent, missing_glyphs, sanitize_text, string_width
from cardgen.render.icons import IconRegistry
from cardgen.render.scene import Box, Primitive, Text
from cardgen.render.units import pt_to_mm

Align: TypeAlias = Literal["left", "center", "right"]
VAlign: TypeAlias = Literal["top", "middle", "bottom"]

_EPS = 1e-6
_TOKEN_RE = re.compile(r"\{\{|\}\}|\{([A-Za-z0-9_.\-]+)\}")


@dataclass(frozen=True)
class TextPiece:
    """Literal text in parsed markup."""

    text: str


@dataclass(frozen=True)
class IconPiece:
    """An ``{icon}`` token in parsed markup."""

    name: str


Piece: TypeAlias = TextPiece | IconPiece


def parse_markup(text: str) -> list[Piece]:
    """Split text into literal pieces and icon tokens (``{{``/``}}`` become braces).

    A ``{`` that does not start a valid token is kept literally.
    """
    if "{" not in text and "}" not in text:  # (no token: the text as it is, the common case)
        return [TextPiece(text)] if text else []
    pieces: list[Piece] = []
    buffer: list[str] = []
    pos = 0
    for match in _TOKEN_RE.finditer(text):
        buffer.append(text[pos : match.start()])
        token = match.group(0)
        if token == "{{":
            buffer.append("{")
        elif token == "}}":
            buffer.append("}")
        else:
            if buffer and "".join(buffer):
                pieces.append(TextPiece("".join(buffer)))
            buffer = []
            pieces.append(IconPiece(match.group(1)))
        pos = match.end()
    buffer.append(text[pos:])
    if "".join(buffer):
        pieces.append(TextPiece("".join(buffer)))
    return pieces


@dataclass(frozen=True, slots=True)
class Overflow:
    """What did not fit or cannot be drawn; empty when everything is fine."""

    lines_over: int = 0
    """Lines whose descender falls below the box."""
    mm_over: float = 0.0
    """How far the text block's bottom is below the box's bottom (mm, >= 0)."""
    missing_glyphs: frozenset[str] = frozenset()
    """Characters the font has no glyph for."""
    unknown_icons: frozenset[str] = frozenset()
    """``{name}`` tokens with no registered icon (drawn as literal text)."""
    overwide_words: tuple[str, ...] = ()
    """Words wider than the box; they were broken between characters."""

    @property
    def fits(self) -> bool:
        """True when nothing overflows vertically or horizontally."""
        return self.lines_over == 0 and self.mm_over <= _EPS and not self.overwide_words

    @property
    def ok(self) -> bool:
        """True when it fits and every character and icon can be drawn."""
        return self.fits and not self.missing_glyphs and not self.unknown_icons


@dataclass(frozen=True, slots=True)
class TextBlock:
    """Result of :func:`layout_text`."""

    items: tuple[Primitive, ...]
    """Positioned Text runs and icon Groups, in page coordinates."""
    line_count: int
    height_mm: float
    """Height of the laid-out block, ascender of line 1 to descender of the last line."""
    overflow: Overflow = field(default_factory=Overflow)


# Internal atoms: a word is a list of atoms with no space between them.
@dataclass(frozen=True)
class _Atom:
    text: str  # literal text, or icon name when is_icon
    is_icon: bool
    width: float


_Word: TypeAlias = list[_Atom]


def _word_width(word: _Word) -> float:
    if len(word) == 1:  # the common word, one run of text: its width as such (the same float the sum gives)
        return word[0].width
    return sum(a.width for a in word)


def _word_text(word: _Word) -> str:
    return "".join("{" + a.text + "}" if a.is_icon else a.text for a in word)


_ATOMS: dict[tuple[str, float], dict[str, _Atom]] = {}
"""Measured runs of text by (font, size), shared by every layout: card texts repeat their words, and a
deck's every card is laid out at least once (an atom is immutable, so sharing it changes nothing)."""
_ATOM_LIMIT = 200_000


class _Measurer:
    def __init__(self, font: str, size_pt: float) -> None:
        self.font = font
        self.size_pt = size_pt
        self.em = pt_to_mm(size_pt)
        self.space = string_width(" ", font, size_pt)
        atoms = _ATOMS.get((font, size_pt))
        if atoms is None:
            if sum(len(known) for known in _ATOMS.values()) > _ATOM_LIMIT:
                _ATOMS.clear()
            atoms = _ATOMS[(font, size_pt)] = {}
        self._atoms = atoms

    def text(self, s: str) -> _Atom:
        atom = self._atoms.get(s)
        if atom is None:
            atom = self._atoms[s] = _Atom(s, False, string_width(s, self.font, self.size_pt))
        return atom

    def icon(self, name: str) -> _Atom:
        return _Atom(name, True, self.em)


def _paragraphs(
    pieces: list[Piece], measure: _Measurer, icons: IconRegistry | None, unknown: set[str]
) -> list[list[_Word]]:
    """Turn markup pieces into paragraphs (split at newlines) of words."""
    paragraphs: list[list[_Word]] = [[]]
    current: _Word = []

    def end_word() -> None:
        nonlocal current
        if current:
            paragraphs[-1].append(current)
            current = []

    for piece in pieces:
        if isinstance(piece, IconPiece):
            if icons is not None and piece.name in icons:
                current.append(measure.icon(piece.name))
            else:
                unknown.add(piece.name)
                current.append(measure.text("{" + piece.name + "}"))
            continue
        text = piece.text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
        for i, line in enumerate(text.split("\n")):
            if i > 0:
                end_word()
                paragraphs.append([])
            for j, chunk in enumerate(line.split(" ")):
                if j > 0:
                    end_word()
                chunk = sanitize_text(chunk)
                if chunk:
                    current.append(measure.text(chunk))
    end_word()
    return paragraphs


def _break_word(word: _Word, width: float, measure: _Measurer) -> list[_Word]:
    """Break a too-wide word between characters into pieces that fit."""
    pieces: list[_Word] = []
    current: _Word = []
    used = 0.0
    units: list[_Atom] = []
    for atom in word:
        units.extend([atom] if atom.is_icon else [measure.text(ch) for ch in atom.text])
    for unit in units:
        if current and used + unit.width > width + _EPS:
            pieces.append(current)
            current, used = [], 0.0
        current.append(unit)
        used += unit.width
    if current:
        pieces.append(current)
    return pieces


@dataclass
class _Line:
    words: list[_Word]
    last_of_paragraph: bool

    def natural_width(self, space: float) -> float:
        return sum(_word_width(w) for w in self.words) + space * max(0, len(self.words) - 1)


def _wrap(paragraphs: list[list[_Word]], width: float, measure: _Measurer, overwide: list[str]) -> list[_Line]:
    lines: list[_Line] = []
    for words in paragraphs:
        para_lines: list[_Line] = []
        current: list[_Word] = []
        used = 0.0
        for word in words:
            parts = [word]
            whole = _word_width(word)
            if whole > width + _EPS:
                overwide.append(_word_text(word))
                parts = _break_word(word, width, measure)
            for part in parts:
                w = whole if part is word else _word_width(part)
                needed = w if not current else used + measure.space + w
                if current and needed > width + _EPS:
                    para_lines.append(_Line(current, False))
                    current, used = [part], w
                else:
                    current.append(part)
                    used = needed
        para_lines.append(_Line(current, True))
        lines.extend(para_lines)
    return lines


def layout_text(
    text: str,
    box: Box,
    font: str = DEFAULT_FONT,
    size_pt: float = 10.0,
    *,
    line_height: float = 1.2,
    align: Align = "left",
    justify: bool = False,
    valign: VAlign = "top",
    fill: str = "#000000",
    icons: IconRegistry | None = None,
) -> TextBlock:
    """Wrap ``text`` into ``box`` and return positioned primitives plus an overflow report.

    ``line_height`` is a multiple of the font size (baseline to baseline).
    ``justify`` stretches every line but the last of each paragraph to the full
    width (``align`` then applies to the last lines). Lines that do not fit are
    still returned, below the box; check ``result.overflow``.

    A text without ``{`` (no icon token, so the icon registry takes no part) is
    laid out once per process for the same box, font, size and options: a
    block is immutable, so every face that prints the same text in the same
    place shares it (a deck's repeated rules texts, a text tried again by the
    shrink-to-fit search of another widget). The key holds each number's
    ``repr``, so ``9`` and ``9.0`` (or ``0.0`` and ``-0.0``), equal as keys but
    written differently into a drawing, stay apart.
    """
    if "{" in text:
        return _layout_text(text, box, font, size_pt, line_height, align, justify, valign, fill, icons)
    key = (text, repr(box), font, repr(size_pt), repr(line_height), align, repr(justify), valign, fill)
    block = _LAID_OUT.get(key)
    if block is None:
        if len(_LAID_OUT) >= _LAID_OUT_LIMIT:
            _LAID_OUT.clear()
        block = _LAID_OUT[key] = _layout_text(text, box, font, size_pt, line_height, align, justify, valign, fill, None)
    return block


def one_run_right(text: str, x: float, font: str, size_pt: float, width: float) -> float | None:
    """Where the laid-out ``text`` ends when it is one run of plain text starting at ``x``, or None if it may not be.

    The right edge of the only item :func:`layout_text` gives for ``text`` left-aligned in a box at ``x`` of
    ``width`` (``x`` plus the run's advance; ``x`` when nothing is drawn), reckoned without laying it out, for a
    text with no icon token, brace or line break that fits well inside the width: such a text is one
    paragraph of words, each one run of text, set on one line as one run. None for anything else (lay it
    out). Used by the one-line fitting search, which asks only for the width at several sizes.
    """
    if "{" in text or "}" in text or "\n" in text or "\r" in text:
        return None
    words = [word for word in (sanitize_text(chunk) for chunk in text.replace("\t", " ").split(" ")) if word]
    content = " ".join(words)
    if not content.strip():
        return x  # nothing drawn
    advance = string_width(content, font, size_pt)
    if not advance < width / 2:  # (far from the wrapping width, so no word or line break can happen)
        return None
    return x + advance


_LAID_OUT: dict[tuple[str, ...], TextBlock] = {}
"""Laid-out blocks of texts without icon tokens, by text, box, font, size and options (see :func:`layout_text`)."""
_LAID_OUT_LIMIT = 2048


def _layout_text(
    text: str,
    box: Box,
    font: str,
    size_pt: float,
    line_height: float,
    align: Align,
    justify: bool,
    valign: VAlign,
    fill: str,
    icons: IconRegistry | None,
) -> TextBlock:
    """:func:`layout_text`, computed."""
    measure = _Measurer(font, size_pt)
    unknown: set[str] = set()
    overwide: list[str] = []
    pieces = parse_markup(text)
    paragraphs = _paragraphs(pieces, measure, icons, unknown)
    lines = _wrap(paragraphs, box.w, measure, overwide)
    if all(not line.words for line in lines):
        lines = []

    missing = _missing(tuple(p.text for p in pieces if isinstance(p, TextPiece)), font)

    asc, desc = ascent(font, size_pt), descent(font, size_pt)
    step = line_height * measure.em
    n = len(lines)
    height = asc + (n - 1) * step + desc if n else 0.0
    fitting = 0
    while fitting < n and asc + fitting * step + desc <= box.h + _EPS:
        fitting += 1
    offset = 0.0
    if height <= box.h + _EPS:
        offset = {"top": 0.0, "middle": (box.h - height) / 2, "bottom": box.h - height}[valign]

    items: list[Primitive] = []
    for index, line in enumerate(lines):
        baseline = box.y + offset + asc + index * step
        items.extend(_place_line(line, baseline, box, measure, align, justify, fill, icons, asc))

    overflow = Overflow(
        lines_over=n - fitting,
        mm_over=max(0.0, round(height - box.h, 6)),
        missing_glyphs=missing,
        unknown_icons=frozenset(unknown) if unknown else _NONE,
        overwide_words=tuple(overwide),
    )
    return TextBlock(items=tuple(items), line_count=n, height_mm=height, overflow=overflow)


@lru_cache(maxsize=1024)
def _missing(texts: tuple[str, ...], font: str) -> frozenset[str]:
    """The characters of ``texts`` the font lacks (memoised: a text shrunk to fit is laid out at several sizes)."""
    return frozenset(missing_glyphs("".join(texts), font)) or _NONE


_NONE: frozenset[str] = frozenset()
"""The one empty set every report without missing glyphs or unknown icons holds (each empty frozenset made
afresh costs 216 bytes, and a deck's every text has a report)."""


def _place_line(
    line: _Line,
    baseline: float,
    box: Box,
    measure: _Measurer,
    align: Align,
    justify: bool,
    fill: str,
    icons: IconRegistry | None,
    asc: float,
) -> list[Primitive]:
    if not line.words:
        return []
    natural = line.natural_width(measure.space)
    gap = measure.space
    stretch = justify and not line.last_of_paragraph and len(line.words) > 1
    if stretch:
        gap = (box.w - sum(_word_width(w) for w in line.words)) / (len(line.words) - 1)
        x = box.x
    elif align == "center":
        x = box.x + (box.w - natural) / 2
    elif align == "right":
        x = box.x + box.w - natural
    else:
        x = box.x

    out: list[Primitive] = []
    run: list[str] = []
    run_x = x

    def flush() -> None:
        nonlocal run
        content = "".join(run)
        if content.strip():
            out.append(Text(run_x, baseline, content, measure.font, measure.size_pt, fill, "start"))
        run = []

    for index, word in enumerate(line.words):
        if index > 0:
            if stretch:
                flush()
            else:
                if not run:
                    run_x = x
                run.append(" ")
            x += gap
        for atom in word:
            if atom.is_icon:
                flush()
                assert icons is not None
                out.append(icons.place(atom.text, x, baseline - asc, measure.em))
            else:
                if not run:
                    run_x = x
                run.append(atom.text)
            x += atom.width
    flush()
    return out


def shrink_to_fit(
    text: str,
    box: Box,
    font: str = DEFAULT_FONT,
    size_pt: float = 10.0,
    min_size_pt: float = 6.0,
    step_pt: float = 0.25,
    **options: object,
) -> TextBlock:
    """Lay out at ``size_pt``, stepping the size down until it fits or reaches ``min_size_pt``.

    ``options`` are passed to :func:`layout_text`. The last attempt (which may
    still overflow) is returned.

    The work is bounded (:data:`~cardgen.limits.MAX_FIT_LAYOUTS`): up to that
    many steps are tried one by one, as always; a longer range is searched by
    halving it, after checking that the text fits at the smallest size at all.
    A size or box that is not a finite number is laid out once, at the smallest size.
    """
    sizes = fit_steps(size_pt, min_size_pt, step_pt)

    def attempt(index: int) -> TextBlock:
        return layout_text(text, box, font, sizes[index], **options)  # type: ignore[arg-type]

    if not all(math.isfinite(v) for v in (box.x, box.y, box.w, box.h)):
        return attempt(len(sizes) - 1)
    if len(sizes) <= MAX_FIT_LAYOUTS and len(text) <= _LONG_TEXT:
        for index in range(len(sizes)):
            block = attempt(index)
            if block.overflow.fits or index == len(sizes) - 1:
                return block
    smallest = attempt(len(sizes) - 1)
    if not smallest.overflow.fits:
        return smallest
    low, high = 0, len(sizes) - 1  # sizes[high] fits; find the largest size (lowest index) that does
    best = smallest
    while low < high:
        middle = (low + high) // 2
        block = attempt(middle)
        if block.overflow.fits:
            high, best = middle, block
        else:
            low = middle + 1
    return best


_LONG_TEXT = 4000
"""Texts longer than this (characters) are first tried at the smallest size: no card prints that much at a readable size."""


def fit_steps(size_pt: float, min_size_pt: float, step_pt: float = 0.25) -> list[float]:
    """The sizes the fitter may try, largest first: ``size_pt`` down by ``step_pt`` to ``min_size_pt``.

    Non-finite or inverted inputs give one size (the smaller finite one, else 6 pt),
    so no caller can start an endless or enormous search.
    """
    finite = [v for v in (size_pt, min_size_pt) if math.isfinite(v) and v > 0]
    if len(finite) < 2 or not (math.isfinite(step_pt) and step_pt > 0):
        return [min(finite) if finite else 6.0]
    count = int((size_pt - min_size_pt + _EPS) // step_pt) + 1
    if count <= 1:
        return [size_pt]
    return [size_pt - index * step_pt for index in range(count)]
