"""Spec variants: a spec folder with some ``numbers.NAME`` values changed in its YAML text.

A variant is made the way a designer would make it: the number's scalar is
rewritten in ``game.yaml`` (every other byte, comments included, stays as it
was), the folder is written out and then loaded and validated by the same
functions as a hand-edited spec (:func:`cardgen.catalogue.validate_folder`
with the static checks, as ``cardgen check`` does). A variant the validator
refuses is reported, never played.

The same rewrite gives the patch ``cardgen tune`` prints: a unified diff of
``game.yaml`` that the designer applies; the spec is never edited in place.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import yaml

from cardgen.findings import InputError, display_path
from cardgen.spec.load import SPEC_FILE

Overrides = tuple[tuple[str, int], ...]
"""A variant's changed numbers, as sorted (name, value) pairs."""

MAX_VARIANTS = 100_000
"""The most combinations a sweep may ask for (a typo like 1..100000 should not hang the client)."""

MAX_FOLDER_BYTES = 16 * 1024 * 1024
"""The most bytes of spec files shipped to a worker with each variant."""

_VARY = re.compile(r"^numbers\.([A-Za-z_][A-Za-z0-9_]*)=(-?\d+)(?:\.\.(-?\d+)(?::(\d+))?)?$")


@dataclass(frozen=True)
class Vary:
    """One varied number: ``numbers.NAME=LOW..HIGH[:STEP]`` (or one value, ``numbers.NAME=V``)."""

    name: str
    low: int
    high: int
    step: int = 1

    @property
    def values(self) -> list[int]:
        """Every value the number takes, low to high."""
        return list(range(self.low, self.high + 1, self.step))

    def as_text(self) -> str:
        """The option as it would be written."""
        return f"numbers.{self.name}={self.low}..{self.high}:{self.step}"


def parse_vary(text: str) -> Vary:
    """Read one ``--vary`` option; an :class:`InputError` (exit 2) names what is wrong."""
    match = _VARY.match(text.strip())
    if match is None:
        raise InputError(f"--vary {text!r}: expected numbers.NAME=LOW..HIGH[:STEP] (whole numbers), e.g. numbers.hand_size=3..7")
    name, low_text, high_text, step_text = match.groups()
    low = int(low_text)
    high = int(high_text) if high_text is not None else low
    step = int(step_text) if step_text is not None else 1
    if high < low:
        raise InputError(f"--vary {text!r}: HIGH ({high}) is below LOW ({low})")
    if step < 1:
        raise InputError(f"--vary {text!r}: STEP must be at least 1")
    return Vary(name, low, high, step)


def parse_varies(texts: Sequence[str]) -> list[Vary]:
    """Read every ``--vary`` option; a number varied twice is refused."""
    varies = [parse_vary(t) for t in texts]
    names = [v.name for v in varies]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(f"--vary names numbers.{twice[0]} more than once")
    if not varies:
        raise InputError("give at least one --vary numbers.NAME=LOW..HIGH[:STEP]")
    return varies


def variant_grid(varies: Sequence[Vary]) -> list[Overrides]:
    """Every combination of the varied values, in a fixed order (the first option varies slowest)."""
    total = 1
    for vary in varies:
        total *= len(vary.values)
    if total > MAX_VARIANTS:
        raise InputError(f"the --vary options make {total} variants, more than {MAX_VARIANTS}; use a STEP or fewer options")
    names = [v.name for v in varies]
    return [canonical(dict(zip(names, combo))) for combo in itertools.product(*(v.values for v in varies))]


def canonical(overrides: Mapping[str, int]) -> Overrides:
    """Overrides as sorted (name, value) pairs: the variant's identity."""
    return tuple(sorted((str(k), int(v)) for k, v in overrides.items()))


def variant_label(overrides: Overrides) -> str:
    """``a=1,b=2``: how tables and result files name a variant."""
    return ",".join(f"{name}={value}" for name, value in overrides)


@dataclass(frozen=True)
class SpecSource:
    """A spec folder as bytes: what a worker needs to rebuild any variant, on any machine.

    ``files`` maps paths relative to the folder (``game.yaml``, card sheets) to
    their bytes; ``spans`` gives, for each number of ``numbers``, the character
    range of its scalar in ``game.yaml``'s text.
    """

    folder_name: str
    shown: str
    """``game.yaml`` as findings name it (``specs/<game>/game.yaml``)."""
    files: tuple[tuple[str, bytes], ...]
    spans: tuple[tuple[str, int, int], ...]

    @property
    def text(self) -> str:
        """``game.yaml``'s text."""
        return dict(self.files)[SPEC_FILE].decode("utf-8")

    @property
    def digest(self) -> str:
        """The sha256 over every file's name and bytes: the base spec's identity in seeds and result files."""
        h = hashlib.sha256()
        for name, data in self.files:
            h.update(name.encode("utf-8") + b"\0" + str(len(data)).encode("ascii") + b"\0" + data)
        return h.hexdigest()

    def numbers(self) -> dict[str, int]:
        """The numbers as written (name to current value)."""
        text = self.text
        return {name: int(text[start:end]) for name, start, end in self.spans}


def read_source(folder: Path) -> SpecSource:
    """Read a spec folder into a :class:`SpecSource` (every regular file under it, hidden ones skipped).

    Raises :class:`InputError` when ``game.yaml`` is not readable YAML with a
    ``numbers`` mapping of plain whole numbers (their places are needed to rewrite them).
    """
    files: list[tuple[str, bytes]] = []
    total = 0
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if not path.is_file() or any(part.startswith(".") for part in relative.parts):
            continue
        if not path.resolve().is_relative_to(folder.resolve()):
            raise InputError("a link leading out of the spec folder: a sweep ships only the folder's own files to its workers", display_path(path))
        data = path.read_bytes()
        total += len(data)
        if total > MAX_FOLDER_BYTES:
            raise InputError(f"the spec folder holds more than {MAX_FOLDER_BYTES // (1024 * 1024)} MB; a sweep ships it to every worker", display_path(folder))
        files.append((relative.as_posix(), data))
    shown = display_path(folder / SPEC_FILE)
    raw = dict(files).get(SPEC_FILE)
    if raw is None:
        raise InputError(f"no {SPEC_FILE} in this folder", display_path(folder))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text: {error}", shown) from error
    return SpecSource(folder.name, shown, tuple(files), tuple(number_spans(text, shown)))


def number_spans(text: str, shown: str) -> list[tuple[str, int, int]]:
    """(name, start, end) of each plain integer scalar under the top-level ``numbers`` mapping of ``text``."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise InputError(f"YAML syntax error: {getattr(error, 'problem', error)}", shown, mark.line + 1 if mark else 0, mark.column + 1 if mark else 0) from error
    if not isinstance(root, yaml.MappingNode):
        raise InputError(f"the top of {SPEC_FILE} must be a mapping of keys", shown, 1, 1)
    spans: list[tuple[str, int, int]] = []
    for key, value in root.value:
        if not (isinstance(key, yaml.ScalarNode) and key.value == "numbers"):
            continue
        if not isinstance(value, yaml.MappingNode):
            raise InputError("numbers must be a mapping of names to whole numbers", shown, value.start_mark.line + 1, value.start_mark.column + 1)
        for name_node, number in value.value:
            if isinstance(number, yaml.ScalarNode) and number.style is None and re.fullmatch(r"[-+]?\d+", number.value):
                spans.append((str(name_node.value), number.start_mark.index, number.end_mark.index))
    return spans


def apply_overrides(source: SpecSource, overrides: Overrides) -> str:
    """``game.yaml``'s text with each overridden number's scalar rewritten; every other byte unchanged.

    Raises :class:`InputError` when the spec has no such number written as a plain whole number.
    """
    text = source.text
    where = {name: (start, end) for name, start, end in source.spans}
    edits: list[tuple[int, int, str]] = []
    for name, value in overrides:
        if name not in where:
            known = ", ".join(sorted(where)) or "none"
            raise InputError(f"--vary numbers.{name}: the spec has no number {name!r} written as a plain whole number (numbers: {known})", source.shown)
        start, end = where[name]
        edits.append((start, end, str(value)))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def spec_patch(source: SpecSource, overrides: Overrides) -> str:
    """A unified diff of ``game.yaml`` from the spec as written to the variant (``patch -p0`` applies it)."""
    before = source.text.splitlines(keepends=True)
    after = apply_overrides(source, overrides).splitlines(keepends=True)
    return "".join(difflib.unified_diff(before, after, fromfile=source.shown, tofile=source.shown))


def write_variant(source: SpecSource, overrides: Overrides, root: Path) -> Path:
    """Write the variant's folder under ``root`` (named like the spec's own folder) and return it."""
    folder = root / source.folder_name
    for name, data in source.files:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(apply_overrides(source, overrides).encode("utf-8") if name == SPEC_FILE else data)
    return folder
