"""Total ink: every RGB colour a face paints, as naive CMYK, against a print shop's limit.

The conversion is the device-independent textbook one, with no ICC profile:
``K = 1 - max(r, g, b)`` and, unless ``K = 1``, ``C = (1 - r - K) / (1 - K)``
(likewise M from g and Y from b). Total ink is ``C + M + Y + K`` in percent.
Pure black ``#000000`` is 100 % (K only); the worst colours are very dark
saturated ones: ``#200000`` gives C 0, M 100, Y 100, K 87.5, so 287.5 %.
A real RIP with an ICC profile adds grey-component replacement and gives lower
numbers; this check is deliberately pessimistic, a prompt to look again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from cardgen.findings import Finding, Severity
from cardgen.render.faces import Face
from cardgen.render.scene import Circle, Group, Line, Path, Polygon, Primitive, Rect, Scene, Text
from cardgen.spec.load import LoadedSpec
from cardgen.validate.registry import register_codes

INK_CODE = "CG601"
register_codes({INK_CODE: "A colour on a card face exceeds the print-shop profile's total ink limit (naive CMYK)."})


def cmyk(colour: str) -> tuple[float, float, float, float]:
    """``'#rrggbb'`` as naive C, M, Y, K fractions in 0..1."""
    value = colour.lstrip("#")
    r, g, b = (int(value[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
    k = 1.0 - max(r, g, b)
    if k >= 1.0:
        return (0.0, 0.0, 0.0, 1.0)
    return ((1.0 - r - k) / (1.0 - k), (1.0 - g - k) / (1.0 - k), (1.0 - b - k) / (1.0 - k), k)


def total_ink(colour: str) -> float:
    """The colour's total ink in percent (0 for white, 100 for pure black, at most 300)."""
    return round(sum(cmyk(colour)) * 100.0, 1)


def _primitive_colours(primitive: Primitive) -> Iterator[str]:
    match primitive:
        case Group():
            for child in primitive.children:
                yield from _primitive_colours(child)
        case Rect() | Polygon() | Path() | Circle():
            if primitive.fill is not None:
                yield primitive.fill.lower()
            if primitive.stroke is not None and primitive.stroke_width > 0:
                yield primitive.stroke.lower()
        case Line():
            if primitive.stroke_width > 0:
                yield primitive.stroke.lower()
        case Text():
            yield primitive.fill.lower()
        case _:
            return  # raster images carry no scene colour


def scene_colours(scene: Scene) -> set[str]:
    """Every fill and stroke colour painted in the scene (raster images are not inspected)."""
    out: set[str] = set()
    for child in scene.children:
        out.update(_primitive_colours(child))
    return out


@dataclass(frozen=True)
class InkProblem:
    """One colour over the limit, and the faces that paint it."""

    colour: str
    ink_percent: float
    faces: tuple[Face, ...]


def ink_problems(faces: Iterable[Face], limit_percent: float) -> list[InkProblem]:
    """Colours whose total ink exceeds ``limit_percent``, darkest-inked first, with the faces using them."""
    users: dict[str, list[Face]] = {}
    for face in faces:
        for colour in sorted(scene_colours(face.scene)):
            if total_ink(colour) > limit_percent:
                users.setdefault(colour, []).append(face)
    problems = [InkProblem(colour, total_ink(colour), tuple(found)) for colour, found in users.items()]
    return sorted(problems, key=lambda p: (-p.ink_percent, p.colour))


def ink_findings(loaded: LoadedSpec, faces: Iterable[Face], limit_percent: float, profile: str, capped_here: bool = False) -> list[Finding]:
    """A warning per offending colour, at the first face that uses it, naming the cards; ``capped_here``:
    the export itself caps the colour (CMYK output), so the hint says what the print loses."""
    out = []
    for problem in ink_problems(faces, limit_percent):
        c, m, y, k = (round(v * 100) for v in cmyk(problem.colour))
        names = [face.label for face in problem.faces]
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        out.append(
            loaded.place_finding(
                INK_CODE,
                Severity.WARNING,
                problem.faces[0].source,
                f"{profile}: colour {problem.colour} is {problem.ink_percent:g}% total ink (C{c} M{m} Y{y} K{k}), over the {limit_percent:g}% limit; used on {shown}",
                "this CMYK export caps it by taking chroma, so it prints duller than on screen; lighten the colour or move it towards pure black"
                if capped_here
                else "lighten the colour or move it towards pure black so the shop's RIP does not have to cut ink",
            )
        )
    return out


CMYK = tuple[float, float, float, float]
"""Cyan, magenta, yellow and black as fractions in 0..1."""

TEXT_BLACK_K = 0.80
"""Text whose naive black is at least this (``#333333`` and darker) is printed in solid black only."""


def capped(value: CMYK, limit_percent: float) -> CMYK:
    """``value`` with its total ink brought down to ``limit_percent``: the chromatic inks give way first.

    The naive conversion already puts the whole grey component in black (one of C, M, Y is 0), so
    the only ink left to take away without lightening the colour is chroma: C, M and Y are scaled
    by one factor until the total meets the limit. Only a limit under the black alone (below
    100 %) scales black too. A colour already within the limit is returned unchanged.
    """
    c, m, y, k = value
    limit = limit_percent / 100.0
    if c + m + y + k <= limit + 1e-9:
        return value
    if k >= limit:
        return (0.0, 0.0, 0.0, limit)
    factor = (limit - k) / (c + m + y)
    return (c * factor, m * factor, y * factor, k)


def print_cmyk(colour: str, limit_percent: float | None, text: bool = False) -> CMYK:
    """The CMYK a ``#rrggbb`` colour is printed with: naive, dark text in solid black, capped to the limit.

    Text darker than :data:`TEXT_BLACK_K` becomes 0/0/0/100 so small type is one plate, sharp
    however the press registers; greys are black ink only anyway (naive conversion)."""
    value = cmyk(colour)
    if text and value[3] >= TEXT_BLACK_K:
        return (0.0, 0.0, 0.0, 1.0)
    return capped(value, limit_percent) if limit_percent is not None else value
