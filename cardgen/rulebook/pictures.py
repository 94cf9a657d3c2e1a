"""Pictures of real cards in the rulebook: a platypus Flowable that draws a render Scene.

The renderer (:mod:`cardgen.render`) builds card faces as :class:`Scene` objects
in mm and draws them with its PDF backend. :class:`SceneFlowable` reuses that
backend's primitive drawing on the rulebook's own canvas, scaled to a width, so
a card looks the same in the rulebook as on the print sheets.

:func:`card_pictures` decides which card face each deck shows in the components
section: by default the first front face of each deck, laid out by the face
renderer (:func:`cardgen.render.faces.card_faces`) in the rulebook's language.
:func:`set_card_picture_provider` plugs another choice in (one face per card
type, say) without editing this module; with no loaded spec (no layouts to
read) there are no pictures.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from cardgen.render.backend import draw_primitive
from cardgen.render.pdf_backend import PdfBackend
from cardgen.render.scene import Scene
from cardgen.render.units import PT_PER_MM
from cardgen.spec.load import LoadedSpec
from cardgen.spec.models import Spec

PictureProvider = Callable[[Spec], dict[str, Scene]]

_provider: PictureProvider | None = None


def set_card_picture_provider(provider: PictureProvider | None) -> None:
    """Install (or, with None, remove) the function that gives each deck's sample card face."""
    global _provider
    _provider = provider


def card_pictures(spec: Spec, loaded: LoadedSpec | None = None, locale: str | None = None) -> dict[str, Scene]:
    """A sample card face per deck id, to show in the rulebook's components section.

    An installed provider decides; otherwise the face renderer draws the first
    front face of each deck from ``loaded`` (which knows the spec folder's layout
    files) with text in ``locale``. Without ``loaded`` there are no pictures.
    """
    if _provider is not None:
        return dict(_provider(spec))
    if loaded is None or loaded.spec is None:
        return {}
    return first_fronts(loaded, locale or spec.locales[0])


def first_fronts(loaded: LoadedSpec, locale: str) -> dict[str, Scene]:
    """The first front face of every deck, as the renderer lays it out."""
    from cardgen.render.faces import card_faces

    pictures: dict[str, Scene] = {}
    for face in card_faces(loaded, locale):
        if face.kind == "front" and face.face_index == 0 and face.group not in pictures:
            pictures[face.group] = face.scene
    return pictures


class _CanvasBackend(PdfBackend):
    """The PDF backend drawing onto an existing canvas (the rulebook page) instead of its own document."""

    def __init__(self, canvas: Canvas) -> None:
        super().__init__()
        self._canvas = canvas


class SceneFlowable(Flowable):
    """Draws a :class:`Scene` (mm, y down) scaled to ``width_mm``, keeping its proportions."""

    def __init__(self, scene: Scene, width_mm: float, clip_to_trim: bool = True) -> None:
        super().__init__()
        self.scene = scene
        self.clip_to_trim = clip_to_trim
        box = scene.trim_box if clip_to_trim and scene.trim_box else None
        self._origin = (box.x, box.y) if box else (0.0, 0.0)
        self._size_mm = (box.w, box.h) if box else (scene.width_mm, scene.height_mm)
        self.scale = width_mm / self._size_mm[0]
        self.width = width_mm * PT_PER_MM
        self.height = self._size_mm[1] * self.scale * PT_PER_MM

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        """The picture's size in points."""
        return self.width, self.height

    def draw(self) -> None:
        """Draw the scene's primitives with the render PDF backend, mm to points and y flipped (it registers the faces the text uses)."""
        canvas: Any = self.canv
        canvas.saveState()
        factor = self.scale * PT_PER_MM
        canvas.transform(factor, 0, 0, -factor, 0, self.height)
        canvas.translate(-self._origin[0], -self._origin[1])
        if self.clip_to_trim:
            clip = canvas.beginPath()
            clip.rect(self._origin[0], self._origin[1], self._size_mm[0], self._size_mm[1])
            canvas.clipPath(clip, stroke=0, fill=0)
        backend = _CanvasBackend(canvas)
        for child in self.scene.children:
            draw_primitive(child, backend)
        canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColorRGB(0.55, 0.55, 0.55)
        canvas.setLineWidth(0.5)
        canvas.rect(0, 0, self.width, self.height, stroke=1, fill=0)
        canvas.restoreState()
