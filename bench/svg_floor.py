"""Floor benchmark for SVG: the same elements cardgen writes, by plain string building.

:func:`write_flat` takes one page of flat operations (see ``bench/scene_flat.py``,
made once from the four games' real card faces) and returns SVG text with the
same elements and attributes cardgen's SVG backend writes (``<rect>``,
``<line>``, ``<polygon>``, ``<path>``, ``<circle>``, ``<text>``, ``<image>``,
``<g>`` with transforms and clip paths), built with f-strings and
``str.join``: no XML library, no cardgen code. ``bench/run.py`` times
cardgen's ``write_svg`` on the same faces against it.
"""

from __future__ import annotations

import base64
from typing import Any

FAMILY = {
    "DejaVuSans": ("DejaVu Sans", False, False),
    "DejaVuSans-Bold": ("DejaVu Sans", True, False),
    "DejaVuSans-Oblique": ("DejaVu Sans", False, True),
    "DejaVuSans-BoldOblique": ("DejaVu Sans", True, True),
    "DejaVuSansCondensed": ("DejaVu Sans Condensed", False, False),
    "DejaVuSansCondensed-Bold": ("DejaVu Sans Condensed", True, False),
}
MM_PER_PT = 25.4 / 72.0


def _n(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _paint(fill: Any, stroke: Any, width: float) -> str:
    out = f' fill="{fill if fill is not None else "none"}"'
    if stroke is not None and width > 0:
        out += f' stroke="{stroke}" stroke-width="{_n(width)}"'
    return out


def write_flat(ops: list[tuple[Any, ...]]) -> str:
    """One SVG document for one flattened page."""
    _, w, h, _trim, _bleed = ops[0]
    body: list[str] = []
    defs: list[str] = []
    clips = 0
    for op in ops[1:]:
        kind = op[0]
        if kind == "rect":
            _, x, y, rw, rh, radius, fill, stroke, width = op
            corner = f' rx="{_n(radius)}" ry="{_n(radius)}"' if radius > 0 else ""
            body.append(f'<rect{_paint(fill, stroke, width)} height="{_n(rh)}" width="{_n(rw)}" x="{_n(x)}" y="{_n(y)}"{corner} />')
        elif kind == "text":
            _, x, y, font, size, fill, anchor, text = op
            family, bold, oblique = FAMILY[font]
            extra = (' font-weight="bold"' if bold else "") + (' font-style="oblique"' if oblique else "")
            extra += f' text-anchor="{anchor}"' if anchor != "start" else ""
            body.append(f'<text fill="{fill}" font-family="{family}" font-size="{_n(size * MM_PER_PT)}"{extra} x="{_n(x)}" xml:space="preserve" y="{_n(y)}">{_esc(text)}</text>')
        elif kind == "push":
            _, translate, rotate, scale, clip = op
            parts = []
            if translate is not None:
                parts.append(f"translate({_n(translate[0])} {_n(translate[1])})")
            if rotate:
                parts.append(f"rotate({_n(rotate)})")
            if scale is not None:
                parts.append(f"scale({_n(scale[0])} {_n(scale[1])})")
            attrs = f' transform="{" ".join(parts)}"' if parts else ""
            if clip is not None:
                clips += 1
                defs.append(f'<clipPath id="clip{clips}"><rect height="{_n(clip[3])}" width="{_n(clip[2])}" x="{_n(clip[0])}" y="{_n(clip[1])}" /></clipPath>')
                attrs += f' clip-path="url(#clip{clips})"'
            body.append(f"<g{attrs}>")
        elif kind == "pop":
            body.append("</g>")
        elif kind == "line":
            _, x1, y1, x2, y2, stroke, width = op
            body.append(f'<line{_paint(None, stroke, width)} x1="{_n(x1)}" x2="{_n(x2)}" y1="{_n(y1)}" y2="{_n(y2)}" />')
        elif kind == "circle":
            _, cx, cy, r, fill, stroke, width = op
            body.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}"{_paint(fill, stroke, width)} r="{_n(r)}" />')
        elif kind == "poly":
            _, points, fill, stroke, width = op
            pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
            body.append(f'<polygon{_paint(fill, stroke, width)} points="{pts}" />')
        elif kind == "path":
            _, commands, fill, stroke, width, evenodd = op
            d = " ".join(c[0] + " ".join(_n(v) for v in c[1:]) if len(c) > 1 else c[0] for c in commands)
            rule = ' fill-rule="evenodd"' if evenodd else ""
            body.append(f'<path d="{d}"{_paint(fill, stroke, width)}{rule} />')
        elif kind == "image":
            _, path, x, y, iw, ih = op
            with open(path, "rb") as handle:
                data = base64.b64encode(handle.read()).decode("ascii")
            body.append(f'<image height="{_n(ih)}" preserveAspectRatio="none" width="{_n(iw)}" x="{_n(x)}" xlink:href="data:image/png;base64,{data}" y="{_n(y)}" />')
    sw, sh = _n(w), _n(h)
    head = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<svg baseProfile="full" height="{sh}mm" style="font-kerning:none" version="1.1" viewBox="0 0 {sw} {sh}" width="{sw}mm" '
        'xmlns="http://www.w3.org/2000/svg" xmlns:ev="http://www.w3.org/2001/xml-events" xmlns:xlink="http://www.w3.org/1999/xlink">'
    )
    return head + "<defs>" + "".join(defs) + "</defs>" + "".join(body) + "</svg>\n"
