"""Inline icon registry: ``{name}`` tokens in text become drawn primitives.

An icon is a callable that, given a square size in mm, returns primitives drawn
inside the square (0, 0)-(size, size) (y down). Text layout places that square
in the line's em box and wraps it in a translated :class:`Group`, so icons are
ordinary primitives and look the same in every backend.
"""

from __future__ import annotations

from typing import Callable, Iterator, Mapping, Sequence

from cardgen.render.scene import Circle, Group, Polygon, Primitive, Rect, Transform

IconDrawer = Callable[[float], Sequence[Primitive]]
"""Draws an icon into a square of the given size (mm), origin at its top-left."""


class IconRegistry:
    """Maps icon names (used as ``{name}`` in text) to drawing callables."""

    def __init__(self, icons: Mapping[str, IconDrawer] | None = None) -> None:
        self._icons: dict[str, IconDrawer] = dict(icons or {})

    def register(self, name: str, drawer: IconDrawer) -> None:
        """Add or replace the icon ``name``."""
        if not name or "{" in name or "}" in name:
            raise ValueError(f"invalid icon name {name!r}")
        self._icons[name] = drawer

    def __contains__(self, name: object) -> bool:
        return name in self._icons

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._icons))

    def place(self, name: str, x: float, top: float, size: float) -> Group:
        """The icon drawn into the square whose top-left corner is (x, top)."""
        children = tuple(self._icons[name](size))
        return Group(children=children, transform=Transform(translate=(x, top)))


def demo_icons() -> IconRegistry:
    """A few generic shapes (circle, square, triangle, diamond) for tests and samples."""

    def circle(s: float) -> Sequence[Primitive]:
        return (Circle(s / 2, s / 2, s * 0.4, fill="#000000"),)

    def square(s: float) -> Sequence[Primitive]:
        return (Rect(s * 0.1, s * 0.1, s * 0.8, s * 0.8, fill="#000000"),)

    def triangle(s: float) -> Sequence[Primitive]:
        return (Polygon(((s / 2, s * 0.1), (s * 0.9, s * 0.9), (s * 0.1, s * 0.9)), fill="#000000"),)

    def diamond(s: float) -> Sequence[Primitive]:
        return (
            Polygon(((s / 2, s * 0.05), (s * 0.95, s / 2), (s / 2, s * 0.95), (s * 0.05, s / 2)), fill="#000000"),
        )

    return IconRegistry({"circle": circle, "square": square, "triangle": triangle, "diamond": diamond})
