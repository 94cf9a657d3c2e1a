"""The scene's primitives write the ``repr`` their dataclasses write (issue 17).

:func:`cardgen.render.scene.scene_digest` hashes a scene's ``repr``, and the build's cache keys hold those
digests. The scene classes give themselves the dataclass ``repr`` without its guard against self-holding
objects (a third of the digests' time); here every object of real faces, of every kind the shipped games
draw, is written both ways: by its class and by a dataclass made from it, whose ``repr`` dataclasses generate.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from cardgen.render import scene as scene_module
from cardgen.render.faces import card_faces
from cardgen.spec.load import load_spec

ROOT = Path(__file__).resolve().parents[2]
_PROBES: dict[type, type] = {}


def _generated_repr(obj: Any) -> str:
    """``repr(obj)`` as the ``repr`` dataclasses generate for its class would write it."""
    cls = type(obj)
    probe = _PROBES.get(cls)
    if probe is None:
        probe = _PROBES[cls] = dataclass(frozen=True)(type("Probe", (cls,), {}))
    copy = probe(**{item.name: getattr(obj, item.name) for item in fields(cls) if item.init})
    return cls.__qualname__ + repr(copy)[len("Probe") :]


def _walk(obj: Any, seen: dict[str, Any]) -> None:
    seen.setdefault(type(obj).__name__, obj)
    assert repr(obj) == _generated_repr(obj)
    for item in fields(obj):
        value = getattr(obj, item.name)
        for part in value if isinstance(value, tuple) else (value,):
            if type(part).__module__ == scene_module.__name__:
                _walk(part, seen)


def test_every_primitive_writes_its_dataclass_repr() -> None:
    seen: dict[str, Any] = {}
    for game in ("ceramus", "keramikos", "ceratopsians", "mausoleum-guardians"):
        faces = card_faces(load_spec(ROOT / "specs" / game))
        for face in faces[:: max(1, len(faces) // 12)]:
            _walk(face.scene, seen)
    assert {"Scene", "Group", "Box", "Rect", "Text"} <= set(seen), sorted(seen)
    extra = scene_module.Path((scene_module.MoveTo(0, 0), scene_module.LineTo(1, 2), scene_module.QuadTo(1, 1, 2, 2), scene_module.CubicTo(0, 1, 2, 3, 4, 5), scene_module.ClosePath()), fill="#102030")
    for obj in (extra, scene_module.Circle(1, 2, 3), scene_module.Line(0, 0, 1, 1), scene_module.Polygon(((0, 0), (1, 0), (0, 1))), scene_module.SharedContent("k", scene_module.Box(0, 0, 1, 1)), scene_module.Group((), scene_module.Transform((1.5, -0.0), 90.0, (1.0, 2.0))), scene_module.Image("card.png", 1, 2, 3, 4)):
        _walk(obj, seen)
