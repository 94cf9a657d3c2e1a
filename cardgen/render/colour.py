"""Colour arithmetic for faces and palette checks.

* sRGB <-> linear RGB <-> CIE XYZ (D65) <-> CIELAB, written out from the sRGB
  and CIE definitions;
* the CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation);
* colour-vision-deficiency simulation with the severity-1.0 matrices of
  Machado, Oliveira and Fernandes (2009), applied in linear RGB;
* helpers the widgets use: mixing, shading, and picking black or white text
  for a background.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

RGB = tuple[float, float, float]
"""Red, green, blue in 0..1."""
Lab = tuple[float, float, float]
"""CIELAB L*, a*, b*."""

Vision = Literal["normal", "protanopia", "deuteranopia", "tritanopia", "greyscale"]
VISIONS: tuple[Vision, ...] = ("normal", "protanopia", "deuteranopia", "tritanopia", "greyscale")

# Machado et al. 2009, table for severity 1.0 (rows give the simulated linear R, G, B).
_MACHADO: dict[str, tuple[RGB, RGB, RGB]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

# D65 reference white for XYZ -> Lab.
_WHITE = (0.95047, 1.0, 1.08883)


def hex_to_rgb(colour: str) -> RGB:
    """``'#rrggbb'`` as three floats in 0..1."""
    value = colour.lstrip("#")
    return (int(value[0:2], 16) / 255.0, int(value[2:4], 16) / 255.0, int(value[4:6], 16) / 255.0)


def rgb_to_hex(rgb: RGB) -> str:
    """Three floats in 0..1 (clamped) as ``'#rrggbb'``."""
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in rgb)


def _to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_gamma(c: float) -> float:
    c = max(0.0, min(1.0, c))
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def linear_rgb(colour: str) -> RGB:
    """The colour in linear-light RGB."""
    r, g, b = hex_to_rgb(colour)
    return (_to_linear(r), _to_linear(g), _to_linear(b))


@lru_cache(maxsize=4096)
def relative_luminance(colour: str) -> float:
    """WCAG relative luminance Y (0 black .. 1 white)."""
    r, g, b = linear_rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _xyz_to_lab(x: float, y: float, z: float) -> Lab:
    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x / _WHITE[0]), f(y / _WHITE[1]), f(z / _WHITE[2])
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def linear_to_lab(rgb: RGB) -> Lab:
    """Linear sRGB (D65) to CIELAB."""
    r, g, b = (max(0.0, min(1.0, c)) for c in rgb)
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
    return _xyz_to_lab(x, y, z)


def to_lab(colour: str) -> Lab:
    """``'#rrggbb'`` to CIELAB."""
    return linear_to_lab(linear_rgb(colour))


def simulate(colour: str, vision: Vision) -> Lab:
    """How the colour looks (as Lab) to a viewer with ``vision``.

    ``greyscale`` keeps only the lightness (a printout on a black-and-white printer).
    """
    lin = linear_rgb(colour)
    if vision == "normal":
        return linear_to_lab(lin)
    if vision == "greyscale":
        return (linear_to_lab(lin)[0], 0.0, 0.0)
    m = _MACHADO[vision]
    sim = tuple(m[i][0] * lin[0] + m[i][1] * lin[1] + m[i][2] * lin[2] for i in range(3))
    return linear_to_lab((sim[0], sim[1], sim[2]))


def delta_e2000(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    c_mean = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)

    def hue(ap: float, bp: float) -> float:
        if ap == 0 and bp == 0:
            return 0.0
        angle = math.degrees(math.atan2(bp, ap))
        return angle + 360 if angle < 0 else angle

    h1p, h2p = hue(a1p, b1), hue(a2p, b2)
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2 + (dc / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dc / s_c) * (dH / s_h)
    )


def mix(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``a`` to ``b`` (in sRGB)."""
    ra, rb = hex_to_rgb(a), hex_to_rgb(b)
    return rgb_to_hex(tuple(x + (y - x) * t for x, y in zip(ra, rb, strict=True)))  # type: ignore[arg-type]


def shade(colour: str, amount: float) -> str:
    """Darker (amount > 0, towards black) or lighter (amount < 0, towards white)."""
    return mix(colour, "#000000", amount) if amount >= 0 else mix(colour, "#ffffff", -amount)


def ink_on(background: str, dark: str = "#1a1a1a", light: str = "#ffffff") -> str:
    """Black or white text, whichever contrasts more with ``background`` (WCAG ratio)."""
    y = relative_luminance(background)
    contrast_dark = (y + 0.05) / (relative_luminance(dark) + 0.05)
    contrast_light = (relative_luminance(light) + 0.05) / (y + 0.05)
    return dark if contrast_dark >= contrast_light else light


def motif_ink(background: str) -> str:
    """A tone for drawing a motif on ``background``: clearly darker, or lighter on dark colours."""
    return shade(background, 0.45) if relative_luminance(background) > 0.18 else shade(background, -0.55)
