"""The hand-written engines a shipped data game is measured against, side by side (issue 14's speed clause).

When a game's play moved from a Python rules module to rules data, the engine it shipped with was kept in
``tests/reference/`` as the oracle the data game agrees with move for move (the lockstep tests). Those kept on
the Game/State API are listed here by spec id, so ``bench/run.py`` (its ``interpreter`` group) plays both on the
path ``cardgen check`` takes and prints their playouts per CPU second and the ratio (target: the data engine at
least half the hand-written speed). A game moved to data later adds its reference here. Crazy Eights' reference
plays with readable string moves, not the Game/State API, and is measured by ``bench/interpreter.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from cardgen.engine.core import Game  # noqa: E402
from cardgen.spec.models import Spec  # noqa: E402
from reference.ceramus import CeramusGame  # noqa: E402
from reference.ceratopsians import CeratopsiansGame  # noqa: E402
from reference.keramikos import KeramikosGame  # noqa: E402
from reference.mausoleum_guardians import MausoleumGame  # noqa: E402

REFERENCE_ENGINES: dict[str, Callable[[Spec, int], Game]] = {
    "mausoleum-guardians": MausoleumGame,
    "ceratopsians": CeratopsiansGame,
    "ceramus": CeramusGame,
    "keramikos": KeramikosGame,
}
"""Spec id -> the hand-written engine of the game (``engine(spec, players)``), for the data games that replaced one."""
