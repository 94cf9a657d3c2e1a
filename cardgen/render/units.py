"""Unit conversions and deterministic number formatting.

Everything in the render layer is expressed in millimetres; points appear only
inside the PDF backend and in font sizes (which typographers give in pt).
"""

from __future__ import annotations

MM_PER_INCH: float = 25.4
PT_PER_INCH: float = 72.0
PT_PER_MM: float = PT_PER_INCH / MM_PER_INCH
MM_PER_PT: float = MM_PER_INCH / PT_PER_INCH


def pt_to_mm(pt: float) -> float:
    """Convert PostScript points to millimetres."""
    return pt * MM_PER_PT


def fmt_number(value: float, decimals: int = 4) -> str:
    """Format a number compactly and deterministically (no exponent, no ``-0``).

    >>> fmt_number(1.50000)
    '1.5'
    >>> fmt_number(-0.00001)
    '0'
    """
    text = f"{value:.{decimals}f}".rstrip("0").rstrip(".")
    if text in ("-0", ""):
        return "0"
    return text
