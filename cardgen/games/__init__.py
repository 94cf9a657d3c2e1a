"""Game packages. Each subpackage registers its rules, solvers and card widgets when imported.

The generic layers call :func:`load_game_packages` and then only ever look games
up through the registries; nothing outside a game's own package names it. A
game may also live outside cardgen's tree, in any installed distribution that
declares an entry point in the ``cardgen.games`` group (see :data:`ENTRY_POINT_GROUP`):
the entry point names a module, imported so it registers itself, or a function
called once with no arguments to do the registering. A package that fails to
import does not take the others down with it: its error is kept and reported by
:func:`package_errors` (and by the commands that need the rules it would have
registered).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

ENTRY_POINT_GROUP = "cardgen.games"
"""The entry-point group through which an installed distribution registers its games, e.g. in its pyproject.toml::

    [project.entry-points."cardgen.games"]
    my-game = "my_game_package"            # a module that registers itself when imported
"""

_loaded = False
_entry_points_loaded = False
_tried: set[tuple[str, str]] = set()
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
    _load_entry_points()


def load_game_package(package_id: str, part: str = "") -> None:
    """Import one in-tree game package (``cardgen.games.<id>``, a ``-`` in the id read as ``_``) or its ``part``
    module, when cardgen has it; for the package itself, then the installed games' entry points (once).

    A lookup by a game's id (its rules, mechanic, solver, layouts, figures) tries this first and
    :func:`load_game_packages` (or :func:`import_game_parts`) only when the id is still unknown, so a run for
    one game imports no other game: about 40 ms of a Keramikos build went to the other packages and their
    widgets. An in-tree package registers only under its own id, or names that begin with its id and an underscore
    (a test checks it), so a lookup finds what it
    would find with every package loaded; the entry points load after it, as they load after every in-tree
    package, so an installed game registering the same id still wins.
    """
    wanted = package_id.replace("-", "_")
    if (wanted, part) in _tried or not wanted.isidentifier():
        return
    _tried.add((wanted, part))
    # The package is the id itself, or the longest leading part of it before an underscore (a mechanic ceramus_mural
    # is the ceramus package's).
    pieces = wanted.split("_")
    candidates = ["_".join(pieces[:k]) for k in range(len(pieces), 0, -1)]
    name = next((c for c in candidates if c.isidentifier() and importlib.util.find_spec(f"{__name__}.{c}") is not None), wanted)
    module = f"{__name__}.{name}" + (f".{part}" if part else "")
    if importlib.util.find_spec(f"{__name__}.{name}") is not None:
        if not part:
            try:
                importlib.import_module(module)
            except Exception as error:  # as load_game_packages: kept for package_errors, the lookup goes on
                _errors[name] = f"{type(error).__name__}: {error}"
        elif importlib.util.find_spec(module) is not None:
            importlib.import_module(module)
    if not part:
        _load_entry_points()


def _load_entry_points() -> None:
    """Import (or call) every ``cardgen.games`` entry point of the installed distributions, in name order (once)."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points

    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            loaded = point.load()
            if callable(loaded):  # a registering function; a module registered itself on import
                loaded()
        except Exception as error:  # an installed game that fails must not break the others either
            _errors[f"{point.name} (entry point {point.value})"] = f"{type(error).__name__}: {error}"


def import_game_parts(part: str) -> None:
    """Import ``cardgen.games.<pkg>.<part>`` for every in-tree game package that has one, in name order.

    A game's widgets and figures register themselves when imported; the render and rulebook layers load them
    only when a run needs them (a layout naming a widget the generic set lacks, a rulebook with pictures).
    """
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        name = f"{__name__}.{module.name}.{part}"
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            found = None
        if found is not None:
            importlib.import_module(name)


def package_errors() -> dict[str, str]:
    """Game packages that failed to import, with their error."""
    load_game_packages()
    return dict(_errors)
