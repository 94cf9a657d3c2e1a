"""Game packages. Each subpackage registers its rules, solvers and card widgets when imported.

The generic layers call :func:`load_game_packages` and then only ever look games
up through the registries; nothing outside a game's own package names it.
"""

from __future__ import annotations

import importlib
import pkgutil

_loaded = False


def load_game_packages() -> None:
    """Import every subpackage of ``cardgen.games`` once, so each registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.ispkg:
            importlib.import_module(f"{__name__}.{module.name}")
