"""Where cardgen's own resource folders are: the checkout, or the installed package.

cardgen reads its bundled files from three folders kept at the top of the
repository, where designers and translators edit them: ``templates/`` (layouts,
sheets, print-shop profiles, rulebook and scaffold templates), ``locales/`` (the
catalogs) and ``schema/`` (the JSON Schema). An editable install reads them
there. A wheel carries copies of them inside the package, under
``cardgen/_resources/`` (``setup.py`` copies them when the wheel is built), so
``pip install cardgen`` works anywhere. This module is the one place that
knows which of the two is in use.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent
_PACKED = _PACKAGE / "_resources"

RESOURCE_FOLDERS = ("templates", "locales", "schema")
"""The folders a wheel carries inside the package."""


def _root() -> Path:
    """The folder holding ``templates/``, ``locales/`` and ``schema/``: the checkout when cardgen runs from one."""
    if (_CHECKOUT / "templates").is_dir() and (_CHECKOUT / "pyproject.toml").is_file():
        return _CHECKOUT
    return _PACKED


RESOURCE_ROOT: Path = _root()
"""The folder the resource folders are read from."""
IN_CHECKOUT: bool = RESOURCE_ROOT == _CHECKOUT
"""Whether cardgen runs from its source checkout (then the bench, the catalog sources and the build folder exist too)."""
TEMPLATES: Path = RESOURCE_ROOT / "templates"
LOCALES: Path = RESOURCE_ROOT / "locales"
SCHEMA: Path = RESOURCE_ROOT / "schema"
CHECKOUT: Path = _CHECKOUT
"""The repository root (meaningful only when :data:`IN_CHECKOUT`)."""
