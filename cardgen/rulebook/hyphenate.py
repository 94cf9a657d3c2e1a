"""A small syllable-based hyphenator for Brazilian Portuguese.

pyphen (the usual dictionary-based hyphenator) is not a dependency of cardgen,
so the rulebook carries its own. Portuguese syllables follow regular rules,
which is enough for breaking lines in a printed rulebook:

* a word is cut into *units*: vowel runs (a nucleus, kept whole: diphthongs and
  hiatuses alike are never split, which loses a few break points but never
  makes a wrong one) and consonants, where the digraphs ``ch``, ``lh``, ``nh``
  and ``qu``/``gu`` before a vowel count as one consonant;
* between two nuclei, one consonant starts the next syllable (``ca-sa``);
* of two or more consonants, the last one starts the next syllable
  (``par-te``, ``pers-pec-ti-va``), unless the last two are an inseparable
  onset such as ``br``, ``pl``, ``tr`` (``ou-tro``, ``abs-tra-to``, ``in-glês``);
* ``rr``, ``ss``, ``sc``, ``sç`` and ``xc`` therefore split (``car-ro``, ``nas-cer``).

:func:`hyphen_pairs` gives the (head, tail) pairs reportlab's paragraph wrapper
asks a hyphenator for (longest head first); :func:`soft_hyphenate` inserts
U+00AD soft hyphens instead, for engines that only understand those.
"""

from __future__ import annotations

import re
from functools import lru_cache

SOFT_HYPHEN = "\u00ad"
MIN_HEAD = 2
"""Letters that must stay before a break."""
MIN_TAIL = 3
"""Letters that must go after a break (a lone syllable of two letters on a new line looks poor)."""
MIN_WORD = 6
"""Shorter words are never broken."""

_VOWELS = frozenset("aeiouyáàâãéêíóôõúü")
_ONSET_SECOND = frozenset("lr")
_ONSET_FIRST = frozenset("bcdfgkptv")
_NOT_ONSETS = frozenset({"dl", "vl"})
_DIGRAPHS = frozenset({"ch", "lh", "nh"})
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def _units(word: str) -> list[tuple[str, bool]]:
    """Cut a lower-case word into (text, is_vowel_nucleus) units."""
    units: list[tuple[str, bool]] = []
    i, n = 0, len(word)
    while i < n:
        ch = word[i]
        if ch in _VOWELS:
            j = i
            while j < n and word[j] in _VOWELS:
                j += 1
            units.append((word[i:j], True))
            i = j
            continue
        pair = word[i : i + 2]
        if pair in _DIGRAPHS:
            units.append((pair, False))
            i += 2
        elif ch in "qg" and i + 2 < n and word[i + 1] in "uü" and word[i + 2] in _VOWELS:
            units.append((word[i : i + 2], False))
            i += 2
        else:
            units.append((ch, False))
            i += 1
    return units


def _inseparable(first: str, second: str) -> bool:
    """Whether two consonant units form an onset that stays together (br, cl, tr...)."""
    return (
        len(first) == 1
        and len(second) == 1
        and first in _ONSET_FIRST
        and second in _ONSET_SECOND
        and first + second not in _NOT_ONSETS
    )


@lru_cache(maxsize=4096)
def break_points(word: str) -> tuple[int, ...]:
    """Character offsets inside ``word`` where a line may break, in increasing order.

    Words with digits, with fewer than :data:`MIN_WORD` letters, or written all in
    capitals (acronyms) get no break points.
    """
    if len(word) < MIN_WORD or not word.isalpha() or (word.isupper() and len(word) > 1):
        return ()
    units = _units(word.lower())
    offsets: list[int] = []
    position = 0
    starts: list[int] = []
    for text, _ in units:
        starts.append(position)
        position += len(text)
    nuclei = [index for index, (_, vowel) in enumerate(units) if vowel]
    for left, right in zip(nuclei, nuclei[1:]):
        consonants = list(range(left + 1, right))
        if not consonants:
            continue
        if len(consonants) == 1:
            cut = consonants[0]
        elif _inseparable(units[consonants[-2]][0], units[consonants[-1]][0]):
            cut = consonants[-2]
        else:
            cut = consonants[-1]
        offset = starts[cut]
        if offset >= MIN_HEAD and len(word) - offset >= MIN_TAIL:
            offsets.append(offset)
    return tuple(offsets)


def syllables(word: str) -> list[str]:
    """The word cut at its break points (for tests and debugging)."""
    points = (0,) + break_points(word) + (len(word),)
    return [word[a:b] for a, b in zip(points, points[1:])]


def hyphen_pairs(word: str) -> list[tuple[str, str]]:
    """(head, tail) splits of ``word``, longest head first, as reportlab's ``hyphenationLang`` callable wants."""
    return [(word[:offset], word[offset:]) for offset in reversed(break_points(word))]


def soft_hyphenate(text: str, min_word: int = MIN_WORD) -> str:
    """``text`` with U+00AD soft hyphens at every break point of its words of ``min_word`` letters or more."""

    def mark(match: re.Match[str]) -> str:
        word = match.group(0)
        if len(word) < min_word:
            return word
        points = break_points(word)
        if not points:
            return word
        pieces = []
        last = 0
        for offset in points:
            pieces.append(word[last:offset])
            last = offset
        pieces.append(word[last:])
        return SOFT_HYPHEN.join(pieces)

    return _WORD.sub(mark, text)
