"""Where a value of a loaded file was written: a :class:`Place` for each path, kept in a :class:`SourceMap`.

Reading the files is :mod:`cardgen.spec.files` (size and encoding limits),
:mod:`cardgen.spec.yaml_load` (YAML, bounded) with :mod:`cardgen.spec.yaml_resolve`
(YAML 1.2 values), :mod:`cardgen.spec.sheets` and :mod:`cardgen.spec.tables`
(card sheets); :mod:`cardgen.spec.parse_cache` keeps parses between builds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PathKey = tuple[str | int, ...]
"""A path inside a document: keys and indexes, as Pydantic reports them in ``loc``."""


@dataclass(frozen=True)
class Place:
    """A file and a 1-based line and column."""

    file: str
    line: int = 0
    column: int = 0


@dataclass
class SourceMap:
    """Where each path of a loaded document was written.

    Paths are tuples of keys and indexes, as Pydantic reports them in ``loc``.
    Lookups fall back to the nearest written ancestor, so a missing key points
    at the mapping that should have held it.
    """

    default_file: str
    places: dict[PathKey, Place] = field(default_factory=dict)

    def place(self, path: PathKey) -> Place:
        """The place of ``path`` or of its nearest ancestor that has one."""
        probe = tuple(path)
        while True:
            found = self.places.get(probe)
            if found is not None:
                return found
            if not probe:
                return Place(self.default_file)
            probe = probe[:-1]


def dotted(path: PathKey) -> str:
    """A readable dotted path: ``decks[0].cards[3].cells``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
