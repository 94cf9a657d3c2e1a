"""The game tests see ``tests/`` on the import path, so they can use the reference engines of ``tests/reference`` (as tests/engine does)."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parents[1])
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
