"""Game packages. Each subpackage registers its rules, solvers and card widgets when imported.

The generic layers call :func:`load_game_packages` and then only ever look games
up through the registries; nothing outside a game's own package names it. A
package that fails to import does not take the others down with it: its error
is kept and reported by :func:`package_errors` (and by the commands that need
the rules it would have registered).
"""

from __future__ import annotations

import importlib
import pkgutil

_loaded = False
_errors: dict[str, str] = {}


def load_game_packages() -> None:
    """Import every subpackage of ``cardgen.games`` once, so each registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.ispkg:
            try:
                importlib.import_module(f"{__name__}.{module.name}")
            except Exception as error:  # a broken game package must not break every other game
                _errors[module.name] = f"{type(error).__name__}: {error}"


def package_errors() -> dict[str, str]:
    """Game packages that failed to import, with their error."""
    load_game_packages()
    return dict(_errors)
