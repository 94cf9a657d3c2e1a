"""A face's ink box folds its primitives' bounds as numbers, and gives the box :meth:`Bounds.union` gives (issue 17)."""

from __future__ import annotations

import random

from cardgen.render.extent import Bounds, _one, ink_box
from cardgen.render.scene import Box, Circle, Group, Line, Primitive, Rect, Text, Transform


def _by_union(primitives: list[Primitive]) -> Bounds | None:
    out: Bounds | None = None
    for primitive in primitives:
        one = _one(primitive)
        if one is not None:
            out = one.union(out)
    return out


def _primitive(rng: random.Random) -> Primitive:
    x, y = rng.choice([0.0, -0.0, rng.uniform(-5, 60)]), rng.choice([0.0, -0.0, rng.uniform(-5, 90)])
    kind = rng.randrange(5)
    if kind == 0:
        return Text(x, y, rng.choice(["Hollow Ferry 3", "W", "draw two", ""]), rng.choice(["DejaVuSans", "DejaVuSans-Bold"]), rng.choice([6.0, 9, 13.5]), "#1a1a1a", rng.choice(["start", "middle", "end"]))
    if kind == 1:
        return Rect(x, y, rng.uniform(0, 20), rng.uniform(0, 20), fill="#ffffff", stroke=rng.choice([None, "#000000"]), stroke_width=0.3)
    if kind == 2:
        return Circle(x, y, rng.uniform(0, 4), fill="#ff0000")
    if kind == 3:
        return Line(x, y, x + 3, y - 2, stroke="#000000", stroke_width=0.2)
    inner = (Text(1.0, 2.0, "in a group", "DejaVuSans", 8.0), Rect(0.0, 0.0, 5.0, 5.0, fill="#00ff00"))
    return Group(inner, Transform((x, y), rng.choice([0.0, 90.0]), (1.0, 1.0)), rng.choice([None, Box(0.0, 0.0, 3.0, 3.0)]))


def test_the_folded_ink_box_is_the_union_of_its_primitives() -> None:
    rng = random.Random(17)
    for _ in range(3000):
        primitives = [_primitive(rng) for _ in range(rng.randrange(0, 6))]
        folded, united = ink_box(primitives), _by_union(primitives)
        assert repr(folded) == repr(united), primitives  # (repr: -0.0 and 0.0 told apart)
