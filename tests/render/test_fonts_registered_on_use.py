"""Fonts are parsed and registered only when text uses them (a TrueType parse costs ~12 ms per face)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
from reportlab.pdfbase import pdfmetrics
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import Scene, Text
scene = Scene(60.0, 40.0, (Text(5.0, 10.0, "Bold words", font="DejaVuSans-Bold", size_pt=9.0),))
data = write_pdf([scene])
assert data.startswith(b"%PDF")
print(sorted(name for name in pdfmetrics.getRegisteredFontNames() if name.startswith("DejaVu")))
"""


def test_a_pdf_registers_only_the_faces_its_text_uses() -> None:
    result = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['DejaVuSans', 'DejaVuSans-Bold']"  # the canvas's initial font, and the one used
