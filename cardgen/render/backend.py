"""Backend interface and the generic scene walker.

A backend turns primitives into an output format. Layout code only builds
:class:`~cardgen.render.scene.Scene` objects; :func:`draw_scene` and
:func:`render_document` feed them to any backend (SVG, PDF, a later PNG one).
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Iterable, Protocol, TypeVar

from cardgen.render.scene import (
    Circle,
    Group,
    Image,
    Line,
    Path,
    Polygon,
    Primitive,
    Rect,
    Scene,
    Text,
)

ResultT = TypeVar("ResultT", covariant=True)


class Backend(Protocol, Generic[ResultT]):
    """What every output backend implements. All coordinates are in mm, y down."""

    def begin_document(self) -> None:
        """Start a new output document (called once, before the first page)."""

    def begin_page(self, scene: Scene) -> None:
        """Start a page of the scene's size (and print boxes, where supported)."""

    def end_page(self) -> None:
        """Finish the current page."""

    def push_group(self, group: Group) -> bool | None:
        """Enter a group: save state, apply its transform, then its clip.

        Return True when the backend has already drawn the group's children
        itself (e.g. placed its shared content by reference, see
        :class:`~cardgen.render.scene.SharedContent`): the walker then skips
        them. None or False: the walker draws the children as usual.
        """

    def pop_group(self) -> None:
        """Leave the innermost group, restoring the state saved by push_group."""

    def draw_rect(self, rect: Rect) -> None:
        """Draw a rectangle."""

    def draw_line(self, line: Line) -> None:
        """Draw a line segment."""

    def draw_polygon(self, polygon: Polygon) -> None:
        """Draw a closed polygon."""

    def draw_path(self, path: Path) -> None:
        """Draw a general path."""

    def draw_circle(self, circle: Circle) -> None:
        """Draw a circle."""

    def draw_text(self, text: Text) -> None:
        """Draw a text run (baseline at text.y)."""

    def draw_image(self, image: Image) -> None:
        """Draw a raster image."""

    def finish(self) -> ResultT:
        """Close the document and return the output (e.g. SVG text or PDF bytes)."""
        ...


def draw_primitive(primitive: Primitive, backend: Backend[object]) -> None:
    """Dispatch one primitive (recursively for groups) to the backend."""
    match primitive:
        case Group():
            if not backend.push_group(primitive):
                for child in primitive.children:
                    draw_primitive(child, backend)
            backend.pop_group()
        case Rect():
            backend.draw_rect(primitive)
        case Line():
            backend.draw_line(primitive)
        case Polygon():
            backend.draw_polygon(primitive)
        case Path():
            backend.draw_path(primitive)
        case Circle():
            backend.draw_circle(primitive)
        case Text():
            backend.draw_text(primitive)
        case Image():
            backend.draw_image(primitive)
        case _:
            raise TypeError(f"not a scene primitive: {primitive!r}")


_METHOD_NAMES: dict[type, str] = {
    Rect: "draw_rect",
    Line: "draw_line",
    Polygon: "draw_polygon",
    Path: "draw_path",
    Circle: "draw_circle",
    Text: "draw_text",
    Image: "draw_image",
}


def draw_children(children: tuple[Primitive, ...], backend: Backend[object]) -> None:
    """Draw primitives (recursively into groups) into whatever the backend is currently drawing.

    Same result as :func:`draw_primitive` on every child, with the backend's
    methods looked up once per call instead of once per primitive.
    """
    methods = {kind: getattr(backend, name) for kind, name in _METHOD_NAMES.items()}
    _walk(children, methods, backend)


def _walk(children: tuple[Primitive, ...], methods: dict[type, Callable[[Any], object]], backend: Backend[object]) -> None:
    """:func:`draw_children`'s walk: a function of the module, not a closure calling itself (such a closure is a
    reference cycle, so each page's walk, its method table and the backend it names waited for the cyclic collector)."""
    for child in children:
        method = methods.get(type(child))
        if method is not None:
            method(child)
        elif type(child) is Group:
            if not backend.push_group(child):
                _walk(child.children, methods, backend)
            backend.pop_group()
        else:
            draw_primitive(child, backend)  # subclasses, or a TypeError for non-primitives


def draw_scene(scene: Scene, backend: Backend[object]) -> None:
    """Draw one scene as one page of the backend's current document."""
    backend.begin_page(scene)
    draw_children(scene.children, backend)
    backend.end_page()


T = TypeVar("T")


def render_document(scenes: Iterable[Scene], backend: Backend[T]) -> T:
    """Draw every scene as a page, in order, and return the backend's output."""
    backend.begin_document()
    for scene in scenes:
        draw_scene(scene, backend)
    return backend.finish()
