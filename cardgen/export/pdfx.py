"""CMYK PDF for print shops that ask for PDF/X-1a (DriveThruCards: PDF/X-1a, 240 % total ink).

:class:`CmykPdfBackend` is the PDF backend painting every colour as DeviceCMYK:

* each ``#rrggbb`` is converted by :func:`cardgen.export.ink.print_cmyk`: the naive conversion
  (the whole grey component in black, so greys are black ink only), dark text in solid black
  (0/0/0/100, one plate, sharp however the press registers), and total ink capped at the
  profile's limit by taking chroma away, never darkness;
* reportlab's ``enforceColorSpace="cmyk"`` refuses any colour that would reach the page as RGB;
* raster images are refused (no face draws one today; converting pixels is not done);
* the document carries what PDF/X-1a:2003 asks of its structure: ``GTS_PDFXVersion`` and
  ``Trapped`` in the Info dictionary, an ``OutputIntents`` entry (``/S /GTS_PDFX``) naming the
  printing condition, with its ICC profile embedded when the profile file names one, a TrimBox
  and a BleedBox on every page (the export sets them), fonts embedded (the backend embeds subsets
  of the bundled TrueType faces), and no transparency, encryption or annotations.

What is *not* done is a full preflight: no ISO 15930 validator runs here, so the files are made
to the letter of the checks listed in docs/decisions.md ("CMYK and PDF/X-1a"), and the tests read
them back with independent readers (pypdf, qpdf, Ghostscript's CMYK rendering).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import CMYKColor
from reportlab.pdfbase.pdfdoc import PDFArray, PDFCatalog, PDFDate, PDFDictionary, PDFInfo, PDFName, PDFStream, PDFString, PDFZCompress

from cardgen.export.ink import print_cmyk
from cardgen.findings import InputError
from cardgen.render.backend import render_document
from cardgen.render.pdf_backend import PdfBackend
from cardgen.render.scene import Image, Scene

PDFX_VERSION = "PDF/X-1a:2003"
"""The PDF/X part and year written as GTS_PDFXVersion (2003: based on PDF 1.4, the version reportlab writes)."""


@dataclass(frozen=True)
class OutputIntent:
    """The printing condition a PDF/X file is prepared for (its OutputIntents entry)."""

    identifier: str
    """OutputConditionIdentifier: a registered characterisation ("CGATS TR 001", "FOGRA39") or the profile's own name."""
    condition: str = ""
    """OutputCondition: the condition in words, for people."""
    registry: str = "http://www.color.org"
    """RegistryName: where ``identifier`` is registered."""
    icc: bytes | None = None
    """The printing condition's CMYK ICC profile, embedded as DestOutputProfile (required by PDF/X
    unless ``identifier`` names a registered characterisation)."""


def read_icc(path: Path) -> bytes:
    """A CMYK output ICC profile's bytes; InputError when the file is not one."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read the ICC profile: {error.strerror or error}", str(path)) from error
    if len(data) < 128 or data[36:40] != b"acsp":
        raise InputError("not an ICC profile (no 'acsp' signature in its header)", str(path))
    if data[16:20] != b"CMYK":
        raise InputError(f"the ICC profile's colour space is {data[16:20].decode('latin-1').strip()!r}, not CMYK", str(path))
    if data[12:16] != b"prtr":
        raise InputError(f"the ICC profile's class is {data[12:16].decode('latin-1')!r}, not an output (prtr) profile", str(path))
    size = int.from_bytes(data[0:4], "big")
    if size != len(data):
        raise InputError(f"the ICC profile says it is {size} bytes but the file has {len(data)}", str(path))
    return data


class _PdfxInfo(PDFInfo):
    """The Info dictionary with the PDF/X keys (reportlab's own writes a fixed set)."""

    def format(self, document: object) -> bytes:
        entries = {
            "Title": PDFString(self.title),
            "Author": PDFString(self.author),
            "Subject": PDFString(self.subject),
            "Creator": PDFString(self.creator),
            "Producer": PDFString(self.producer),
            "Keywords": PDFString(self.keywords),
            "Trapped": PDFName("False"),
            "GTS_PDFXVersion": PDFString(PDFX_VERSION),
        }
        entries["CreationDate"] = entries["ModDate"] = PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)  # type: ignore[attr-defined]
        formatted: bytes = PDFDictionary(entries).format(document)
        return formatted


class CmykPdfBackend(PdfBackend):
    """The PDF backend painting DeviceCMYK, with the PDF/X-1a document structure."""

    colour_space = "cmyk"

    def __init__(self, intent: OutputIntent, ink_limit_percent: float | None, title: str = "") -> None:
        super().__init__(title=title)
        self._intent = intent
        self._limit = ink_limit_percent
        self._paints: dict[tuple[str, bool], CMYKColor] = {}

    def paint_value(self, colour: str, text: bool = False) -> object:
        """The colour as reportlab's CMYKColor (cached, so the same colour is the same object)."""
        key = (colour, text)
        value = self._paints.get(key)
        if value is None:
            c, m, y, k = (round(v, 4) for v in print_cmyk(colour.lower(), self._limit, text))
            value = self._paints[key] = CMYKColor(c, m, y, k)
        return value

    def begin_document(self) -> None:
        """The canvas, then the Info keys and the output intent PDF/X asks for."""
        super().begin_document()
        document = self._c._doc
        info = _PdfxInfo()
        info.__dict__.update(document.info.__dict__)
        document.info = info
        intent: dict[str, object] = {
            "Type": PDFName("OutputIntent"),
            "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString(self._intent.identifier),
            "RegistryName": PDFString(self._intent.registry),
            "Info": PDFString(self._intent.condition or self._intent.identifier),
        }
        if self._intent.condition:
            intent["OutputCondition"] = PDFString(self._intent.condition)
        if self._intent.icc is not None:
            stream = PDFStream(PDFDictionary({"N": 4}), self._intent.icc, filters=[PDFZCompress])
            intent["DestOutputProfile"] = document.Reference(stream)
        catalog = document.Catalog
        catalog.__Defaults__ = {**PDFCatalog.__Defaults__, "OutputIntents": PDFArray([PDFDictionary(intent)])}

    def draw_image(self, image: Image) -> None:
        """Refused: a raster image would be RGB on a CMYK page."""
        raise InputError("a raster image cannot go into CMYK (PDF/X-1a) output; use vector art or an RGB profile", image.path)


def write_pdfx(scenes: list[Scene], intent: OutputIntent, ink_limit_percent: float | None, title: str) -> bytes:
    """The scenes as one CMYK PDF/X-1a document (every scene should carry its TrimBox)."""
    if not title:
        raise ValueError("PDF/X needs a document title")
    return render_document(scenes, CmykPdfBackend(intent, ink_limit_percent, title=title))
