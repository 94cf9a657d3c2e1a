"""cardgen: a tabletop card game kept as data, turned into print sheets, rulebooks and a solvability report.

The library's face is :mod:`cardgen.api`, whose functions are also reachable
here (``cardgen.load_checked("ceramus")``); they are imported on first use, so
``import cardgen`` stays cheap. See docs/api.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from cardgen.api import (
        SpecRefused as SpecRefused,
        build_spec as build_spec,
        check_spec as check_spec,
        every_spec as every_spec,
        find_spec as find_spec,
        load_spec as load_spec,
        load_checked as load_checked,
        make_game as make_game,
        play_game as play_game,
        solve_deal as solve_deal,
        validate_spec as validate_spec,
    )

__all__ = [
    "__version__", "SpecRefused", "build_spec", "check_spec", "every_spec", "find_spec",
    "load_spec", "load_checked", "make_game", "play_game", "solve_deal", "validate_spec",
]


def __getattr__(name: str) -> Any:
    """The API's functions, imported from :mod:`cardgen.api` on first use."""
    if name in __all__ and name != "__version__":
        from cardgen import api

        return getattr(api, name)
    raise AttributeError(f"module 'cardgen' has no attribute {name!r}")
