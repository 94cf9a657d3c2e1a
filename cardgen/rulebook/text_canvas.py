"""The rulebook's canvas: reportlab's, with a text object that writes plain ASCII runs without encoding them.

reportlab's text object writes every run of a TrueType face through the face's
``splitString``, a Python loop over the run's characters that looks each one up
in the document's subset assignments. A rulebook's card list draws thousands of
lines, and that loop was a tenth of typesetting it. Once a face's first subset
maps every printable ASCII character to itself in a document (reportlab's
ASCII-readable subset 0, set up as the face is first used), a run of printable
ASCII text is that subset's bytes as they are: :class:`AsciiTextObject` writes
such a run with the operators reportlab writes for it, and leaves every other
run (other characters, shaped text, other kinds of fonts) to reportlab. The
PDF is the same, byte for byte.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfbase.ttfonts import ShapedStr
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject


class AsciiTextObject(PDFTextObject):
    """reportlab's text object, writing a printable ASCII run of an ASCII-readable TrueType face directly."""

    def _formatText(self, text: Any) -> str:  # noqa: N802 (reportlab's name)
        if isinstance(text, str) and text and text.isascii() and text.isprintable() and not isinstance(text, ShapedStr):
            canvas: Any = self._canvas
            run: Any = self  # (reportlab's attributes, untyped)
            font = getFont(run._fontname)
            if font._dynamicFont and canvas.ascii_readable(font):
                parts = []
                if run._curSubset != 0:
                    parts.append(f"{font.getSubsetInternalName(0, canvas._doc)} {fp_str(run._fontsize)} Tf {fp_str(run._leading)} TL")
                    run._curSubset = 0
                parts.append(f"({canvas._escape(text.encode('ascii'))}) Tj")
                return " ".join(parts)
        result: str = super()._formatText(text)
        return result


class TextCanvas(Canvas):
    """reportlab's canvas, whose text objects are :class:`AsciiTextObject`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._ascii_readable: set[str] = set()

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> PDFTextObject:  # noqa: N802 (reportlab's name)
        """A fresh text object (see :class:`AsciiTextObject`)."""
        return AsciiTextObject(self, x, y, direction=direction)

    def ascii_readable(self, font: Any) -> bool:
        """Whether ``font``'s subset 0 holds every printable ASCII character as its own code in this document.

        Known only once the face has been used in the document; an assignment never changes, so a face
        found readable stays so.
        """
        if font.fontName in self._ascii_readable:
            return True
        state = font.state.get(self._doc)
        if state is None or not all(state.assignments.get(code) == code for code in range(32, 127)):
            return False
        self._ascii_readable.add(font.fontName)
        return True
