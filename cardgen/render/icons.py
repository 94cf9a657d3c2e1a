"""Inline icon registry: ``{name}`` tokens in text become drawn primitives.

An icon is a callable that, given a square size in mm, returns primitives drawn
inside the square (0, 0)-(size, size) (y down). Text layout places that square
in the line's em box and wraps it in a translated :class:`Group`, so icons are
ordinary primitives and look the same in every backend.
"""

from __future__ import annotations

from typing import Callable, Iterator, Mapping, Sequence

from cardgen.render.scene import Group, Primitive, Transform

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
