"""Immutable scene graph of drawing primitives.

Coordinates are millimetres, the origin is the top-left corner and the y axis
points DOWN (as in SVG). Font sizes are the exception: they are given in points,
as typographers expect. Colours are ``'#rrggbb'`` strings; ``None`` means "no
fill" or "no stroke". Backends (SVG, PDF, later PNG) consume a :class:`Scene`
through :func:`cardgen.render.backend.draw_scene`; layouts never see a backend.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, fields
from typing import Literal, Sequence, TypeAlias, Union

Color: TypeAlias = str | None
"""A ``'#rrggbb'`` colour, or ``None`` for no paint."""

Anchor: TypeAlias = Literal["start", "middle", "end"]
FillRule: TypeAlias = Literal["nonzero", "evenodd"]
Point: TypeAlias = tuple[float, float]

_COLOR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


def _check_color(value: Color, what: str) -> None:
    if value is not None and not _COLOR_RE.fullmatch(value):
        raise ValueError(f"{what} must be '#rrggbb' or None, got {value!r}")


def _check_paint(fill: Color, stroke: Color, stroke_width: float) -> None:
    _check_color(fill, "fill")
    _check_color(stroke, "stroke")
    if stroke_width < 0:
        raise ValueError(f"stroke_width must be >= 0, got {stroke_width}")


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle (geometry only, no paint), in mm."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        """x of the right edge."""
        return self.x + self.w

    @property
    def bottom(self) -> float:
        """y of the bottom edge (y points down)."""
        return self.y + self.h

    def inset(self, d: float) -> "Box":
        """The box shrunk by ``d`` on every side (negative ``d`` grows it)."""
        return Box(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def translated(self, dx: float, dy: float) -> "Box":
        """The box moved by (dx, dy)."""
        return Box(self.x + dx, self.y + dy, self.w, self.h)


@dataclass(frozen=True, slots=True)
class Rect:
    """A filled and/or stroked rectangle, optionally with rounded corners."""

    x: float
    y: float
    w: float
    h: float
    fill: Color = None
    stroke: Color = None
    stroke_width: float = 0.0
    radius: float = 0.0

    def __post_init__(self) -> None:
        _check_paint(self.fill, self.stroke, self.stroke_width)


@dataclass(frozen=True, slots=True)
class Line:
    """A straight stroked segment from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    stroke_width: float = 0.25

    def __post_init__(self) -> None:
        _check_paint(None, self.stroke, self.stroke_width)


@dataclass(frozen=True, slots=True)
class Polygon:
    """A closed polygon through ``points``."""

    points: tuple[Point, ...]
    fill: Color = None
    stroke: Color = None
    stroke_width: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", tuple((float(x), float(y)) for x, y in self.points))
        _check_paint(self.fill, self.stroke, self.stroke_width)


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle centred on (cx, cy) with radius r."""

    cx: float
    cy: float
    r: float
    fill: Color = None
    stroke: Color = None
    stroke_width: float = 0.0

    def __post_init__(self) -> None:
        _check_paint(self.fill, self.stroke, self.stroke_width)


@dataclass(frozen=True, slots=True)
class MoveTo:
    """Path command: start a new sub-path at (x, y)."""

    x: float
    y: float


@dataclass(frozen=True, slots=True)
class LineTo:
    """Path command: straight line to (x, y)."""

    x: float
    y: float


@dataclass(frozen=True, slots=True)
class CubicTo:
    """Path command: cubic Bezier through control points (x1,y1), (x2,y2) to (x, y)."""

    x1: float
    y1: float
    x2: float
    y2: float
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class QuadTo:
    """Path command: quadratic Bezier with control point (x1, y1) to (x, y)."""

    x1: float
    y1: float
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class ClosePath:
    """Path command: close the current sub-path."""


PathCommand: TypeAlias = MoveTo | LineTo | CubicTo | QuadTo | ClosePath


@dataclass(frozen=True, slots=True)
class Path:
    """A general path made of move/line/curve/close commands."""

    commands: tuple[PathCommand, ...]
    fill: Color = None
    stroke: Color = None
    stroke_width: float = 0.0
    fill_rule: FillRule = "nonzero"

    def __post_init__(self) -> None:
        object.__setattr__(self, "commands", tuple(self.commands))
        _check_paint(self.fill, self.stroke, self.stroke_width)
        if self.commands and not isinstance(self.commands[0], MoveTo):
            raise ValueError("a Path must start with MoveTo")


@dataclass(frozen=True, slots=True)
class Text:
    """A single run of text on one baseline.

    ``y`` is the BASELINE. ``font`` is a face key from :mod:`cardgen.render.fonts`
    (e.g. ``"DejaVuSans-Bold"``); ``size_pt`` is the font size in points.
    ``anchor`` says whether ``x`` is the start, middle or end of the run.
    """

    x: float
    y: float
    text: str
    font: str = "DejaVuSans"
    size_pt: float = 10.0
    fill: str = "#000000"
    anchor: Anchor = "start"

    def __post_init__(self) -> None:
        _check_color(self.fill, "fill")
        if self.size_pt <= 0:
            raise ValueError(f"size_pt must be > 0, got {self.size_pt}")


@dataclass(frozen=True, slots=True)
class Image:
    """A raster image file (PNG/JPEG) stretched into the box (x, y, w, h)."""

    path: str
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Transform:
    """Group transform, applied as translate, then rotate, then scale.

    ``rotate`` is in degrees; with y pointing down a positive angle turns
    clockwise on the page (SVG semantics).
    """

    translate: Point = (0.0, 0.0)
    rotate: float = 0.0
    scale: Point = (1.0, 1.0)

    @property
    def is_identity(self) -> bool:
        """True when the transform changes nothing."""
        return self.translate == (0.0, 0.0) and self.rotate == 0.0 and self.scale == (1.0, 1.0)


@dataclass(frozen=True, slots=True)
class SharedContent:
    """Names a group's children as content that recurs within one document.

    A card face placed on many sheet slots is the typical case. ``key`` must be
    derived from the content itself (e.g. :func:`scene_digest` of the face), so
    two groups with the same key always have equal children; ``bounds`` (in the
    group's local coordinates) encloses everything the content draws, and
    nothing outside it is shown. A backend that can define content once and
    place it by reference (PDF Form XObjects) does so; any other backend simply
    draws the children, so the look never depends on it.
    """

    key: str
    bounds: Box

    def __post_init__(self) -> None:
        if not self.key:
            raise ValueError("a shared content key must not be empty")
        if self.bounds.w <= 0 or self.bounds.h <= 0:
            raise ValueError(f"shared content bounds must have a positive size, got {self.bounds}")


@dataclass(frozen=True, slots=True)
class Group:
    """A list of children sharing a transform and an optional clip rectangle.

    The clip rectangle is expressed in the group's LOCAL coordinates, i.e. after
    ``transform`` has been applied. ``shared``, when set, says the children are
    reusable content (see :class:`SharedContent`); it never changes what is drawn.
    """

    children: tuple["Primitive", ...]
    transform: Transform | None = None
    clip: Box | None = None
    shared: SharedContent | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "children", tuple(self.children))


Primitive: TypeAlias = Union[Rect, Line, Polygon, Path, Circle, Text, Image, Group]
"""Anything a scene or group can contain."""


@dataclass(frozen=True, slots=True)
class Scene:
    """One page or card face: a size in mm and the primitives on it.

    ``trim_box`` and ``bleed_box`` (page coordinates, mm) are optional print
    boxes; the PDF backend writes them as the page's TrimBox/BleedBox.
    """

    width_mm: float
    height_mm: float
    children: tuple[Primitive, ...] = field(default_factory=tuple)
    trim_box: Box | None = None
    bleed_box: Box | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "children", tuple(self.children))
        if self.width_mm <= 0 or self.height_mm <= 0:
            raise ValueError("scene size must be positive")


def card_scene(trim_w: float, trim_h: float, bleed: float, children: Sequence[Primitive]) -> Scene:
    """A card-face scene sized trim + 2*bleed, with trim and bleed boxes set.

    The children are drawn in scene coordinates: the trim area starts at
    (bleed, bleed).
    """
    return Scene(
        width_mm=trim_w + 2 * bleed,
        height_mm=trim_h + 2 * bleed,
        children=tuple(children),
        trim_box=Box(bleed, bleed, trim_w, trim_h),
        bleed_box=Box(0.0, 0.0, trim_w + 2 * bleed, trim_h + 2 * bleed),
    )


def shared_face(face: Scene, digest: str | None = None) -> SharedContent:
    """The :class:`SharedContent` naming a face scene's children, bounded by the face's size.

    The key is the face's :func:`scene_digest`; pass ``digest`` when it is
    already known (it must be ``scene_digest(face)``) to skip hashing again.
    """
    return SharedContent(f"face-{digest or scene_digest(face)}", Box(0.0, 0.0, face.width_mm, face.height_mm))


def _unguarded_repr(cls: type) -> None:
    """Give a scene dataclass the ``repr`` its dataclass writes, without the guard against an object that holds
    itself (``dataclasses`` wraps each generated ``repr`` in one): a scene is a tree of immutable tuples, which
    cannot hold itself, and :func:`scene_digest` writes every primitive of a deck's faces (the guard was a third
    of it). The text is the same: the class's qualified name and each ``repr=True`` field as ``name=repr``."""
    parts = ", ".join(f"{item.name}={{self.{item.name}!r}}" for item in fields(cls) if item.repr)
    namespace: dict[str, object] = {}
    exec(f"def __repr__(self):\n    return self.__class__.__qualname__ + f'({parts})'\n", namespace)
    function = namespace["__repr__"]
    function.__qualname__ = f"{cls.__qualname__}.__repr__"  # type: ignore[attr-defined]
    setattr(cls, "__repr__", function)


for _cls in (Box, Rect, Line, Polygon, Circle, MoveTo, LineTo, CubicTo, QuadTo, ClosePath, Path, Text, Image, Transform, SharedContent, Group, Scene):
    _unguarded_repr(_cls)


def _image_paths(children: tuple[Primitive, ...], out: list[str]) -> None:
    for child in children:
        if isinstance(child, Image):
            out.append(child.path)
        elif isinstance(child, Group):
            _image_paths(child.children, out)


def scene_digest(scene: Scene) -> str:
    """A sha256 hex digest of everything a scene draws: its full ``repr`` plus the bytes of any image it embeds.

    Two scenes with the same digest render to the same bytes with any backend,
    which is what the build's artefact cache relies on.
    """
    text = repr(scene)
    digest = hashlib.sha256(text.encode())
    if "Image(" in text:
        paths: list[str] = []
        _image_paths(scene.children, paths)
        for path in paths:
            try:
                with open(path, "rb") as handle:
                    digest.update(hashlib.sha256(handle.read()).digest())
            except OSError:
                digest.update(b"unreadable:" + path.encode())
    return digest.hexdigest()
