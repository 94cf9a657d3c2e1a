"""Fixtures for the render layer tests."""

from __future__ import annotations

import pytest
from render_helpers import make_face

from cardgen.render.scene import Scene


@pytest.fixture
def face() -> Scene:
    """One sample card face with 3 mm bleed."""
    return make_face("Sample")
