"""Floor benchmarks for SVG: the same elements cardgen writes, with no cardgen code on the timed path.

Both take one page of flat operations (see ``bench/scene_flat.py``, made once,
untimed, from the four games' real card faces) and return SVG text with the
same elements and attributes cardgen's SVG backend writes (``<rect>``,
``<line>``, ``<polygon>``, ``<path>``, ``<circle>``, ``<text>``, ``<image>``,
``<g>`` with transforms and clip paths):

* :func:`write_flat` is THE floor: a bare svgwrite script. A ``Drawing`` with
  validation off, one svgwrite element object per primitive made the cheapest
  way svgwrite's public classes allow (the class with ``factory=`` the drawing,
  attributes put in its ``attribs``), numbers formatted to 4 decimals inline,
  one ``tostring()``. ``bench/run.py`` times cardgen's ``write_svg`` on the
  same faces against it: the "at most 2x" target.
* :func:`write_flat_strings` builds the same text with f-strings and
  ``str.join`` (no XML library at all), reported for information: it shows
  what svgwrite itself costs.
"""

from __future__ import annotations

import base64
from typing import Any

import svgwrite
from svgwrite.container import Group as SvgGroup
from svgwrite.image import Image as SvgImage
from svgwrite.masking import ClipPath as SvgClipPath
from svgwrite.path import Path as SvgPath
from svgwrite.shapes import Circle as SvgCircle
from svgwrite.shapes import Line as SvgLine
from svgwrite.shapes import Polygon as SvgPolygon
from svgwrite.shapes import Rect as SvgRect
from svgwrite.text import Text as SvgText

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


def write_flat_strings(ops: list[tuple[Any, ...]]) -> str:
    """One SVG document for one flattened page, by plain string building."""
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


def _attr_paint(attrs: dict[str, Any], fill: Any, stroke: Any, width: float) -> None:
    attrs["fill"] = fill if fill is not None else "none"
    if stroke is not None and width > 0:
        attrs["stroke"] = stroke
        attrs["stroke-width"] = _n(width)


def write_flat(ops: list[tuple[Any, ...]]) -> str:
    """One SVG document for one flattened page, by bare svgwrite calls."""
    _, w, h, _trim, _bleed = ops[0]
    sw, sh = _n(w), _n(h)
    dwg = svgwrite.Drawing(size=(f"{sw}mm", f"{sh}mm"), profile="full", debug=False)
    dwg.attribs["viewBox"] = f"0 0 {sw} {sh}"
    dwg.attribs["style"] = "font-kerning:none"
    stack: list[Any] = [dwg]
    clips = 0
    for op in ops[1:]:
        kind = op[0]
        if kind == "rect":
            _, x, y, rw, rh, radius, fill, stroke, width = op
            element = SvgRect(factory=dwg)
            attrs = element.attribs
            _attr_paint(attrs, fill, stroke, width)
            attrs["x"], attrs["y"], attrs["width"], attrs["height"] = _n(x), _n(y), _n(rw), _n(rh)
            if radius > 0:
                attrs["rx"] = attrs["ry"] = _n(radius)
        elif kind == "text":
            _, x, y, font, size, fill, anchor, text = op
            family, bold, oblique = FAMILY[font]
            element = SvgText(text, factory=dwg)
            attrs = element.attribs
            attrs["font-family"], attrs["font-size"], attrs["fill"] = family, _n(size * MM_PER_PT), fill
            attrs["xml:space"] = "preserve"
            if bold:
                attrs["font-weight"] = "bold"
            if oblique:
                attrs["font-style"] = "oblique"
            if anchor != "start":
                attrs["text-anchor"] = anchor
            attrs["x"], attrs["y"] = _n(x), _n(y)
        elif kind == "push":
            _, translate, rotate, scale, clip = op
            element = SvgGroup(factory=dwg)
            parts = []
            if translate is not None:
                parts.append(f"translate({_n(translate[0])} {_n(translate[1])})")
            if rotate:
                parts.append(f"rotate({_n(rotate)})")
            if scale is not None:
                parts.append(f"scale({_n(scale[0])} {_n(scale[1])})")
            if parts:
                element.attribs["transform"] = " ".join(parts)
            if clip is not None:
                clips += 1
                clip_path = SvgClipPath(factory=dwg)
                clip_path.attribs["id"] = f"clip{clips}"
                rect = SvgRect(factory=dwg)
                rect.attribs.update(x=_n(clip[0]), y=_n(clip[1]), width=_n(clip[2]), height=_n(clip[3]))
                clip_path.elements.append(rect)
                dwg.defs.elements.append(clip_path)
                element.attribs["clip-path"] = f"url(#clip{clips})"
            stack[-1].elements.append(element)
            stack.append(element)
            continue
        elif kind == "pop":
            stack.pop()
            continue
        elif kind == "line":
            _, x1, y1, x2, y2, stroke, width = op
            element = SvgLine(factory=dwg)
            attrs = element.attribs
            _attr_paint(attrs, None, stroke, width)
            attrs["x1"], attrs["y1"], attrs["x2"], attrs["y2"] = _n(x1), _n(y1), _n(x2), _n(y2)
        elif kind == "circle":
            _, cx, cy, r, fill, stroke, width = op
            element = SvgCircle(factory=dwg)
            attrs = element.attribs
            _attr_paint(attrs, fill, stroke, width)
            attrs["cx"], attrs["cy"], attrs["r"] = _n(cx), _n(cy), _n(r)
        elif kind == "poly":
            _, points, fill, stroke, width = op
            element = SvgPolygon([(_n(x), _n(y)) for x, y in points], factory=dwg)
            _attr_paint(element.attribs, fill, stroke, width)
        elif kind == "path":
            _, commands, fill, stroke, width, evenodd = op
            d = " ".join(c[0] + " ".join(_n(v) for v in c[1:]) if len(c) > 1 else c[0] for c in commands)
            element = SvgPath(d, factory=dwg)
            _attr_paint(element.attribs, fill, stroke, width)
            if evenodd:
                element.attribs["fill-rule"] = "evenodd"
        elif kind == "image":
            _, path, x, y, iw, ih = op
            with open(path, "rb") as handle:
                data = base64.b64encode(handle.read()).decode("ascii")
            element = SvgImage(f"data:image/png;base64,{data}", factory=dwg)
            attrs = element.attribs
            attrs["x"], attrs["y"], attrs["width"], attrs["height"] = _n(x), _n(y), _n(iw), _n(ih)
            attrs["preserveAspectRatio"] = "none"
        else:
            continue
        stack[-1].elements.append(element)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + dwg.tostring() + "\n"
