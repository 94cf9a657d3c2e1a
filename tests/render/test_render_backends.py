"""Backend-independent walking, images, and backend contracts."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image as PilImage
from render_helpers import read_pdf

from cardgen.render.backend import draw_scene
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import (
    Box, Circle, Group, Image, Line, Path as PathShape, MoveTo, LineTo, Polygon, Rect, Scene, Text, Transform,
)
from cardgen.render.svg_backend import SvgBackend, write_svg


class RecordingBackend:
    """A fake backend recording calls, to check the walker (as a PNG backend would see it)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def begin_document(self) -> None:
        self.calls.append("begin_document")

    def begin_page(self, scene: Scene) -> None:
        self.calls.append("begin_page")

    def end_page(self) -> None:
        self.calls.append("end_page")

    def push_group(self, group: Group) -> None:
        self.calls.append("push")

    def pop_group(self) -> None:
        self.calls.append("pop")

    def draw_rect(self, rect: Rect) -> None:
        self.calls.append("rect")

    def draw_line(self, line: Line) -> None:
        self.calls.append("line")

    def draw_polygon(self, polygon: Polygon) -> None:
        self.calls.append("polygon")

    def draw_path(self, path: PathShape) -> None:
        self.calls.append("path")

    def draw_circle(self, circle: Circle) -> None:
        self.calls.append("circle")

    def draw_text(self, text: Text) -> None:
        self.calls.append("text")

    def draw_image(self, image: Image) -> None:
        self.calls.append("image")

    def finish(self) -> list[str]:
        return self.calls


def test_walker_visits_every_primitive_in_order() -> None:
    scene = Scene(10, 10, (
        Rect(0, 0, 1, 1, fill="#000000"),
        Group((Line(0, 0, 1, 1), Group((Circle(1, 1, 1),)), Text(0, 5, "x")), Transform(rotate=45), clip=Box(0, 0, 5, 5)),
        Polygon(((0, 0), (1, 0), (0, 1))),
        PathShape((MoveTo(0, 0), LineTo(1, 1))),
    ))
    backend = RecordingBackend()
    draw_scene(scene, backend)
    assert backend.calls == [
        "begin_page", "rect", "push", "line", "push", "circle", "pop", "text", "pop", "polygon", "path", "end_page",
    ]


def test_invalid_colour_is_rejected() -> None:
    with pytest.raises(ValueError):
        Rect(0, 0, 1, 1, fill="red")


@pytest.fixture
def png(tmp_path: Path) -> str:
    path = tmp_path / "pixel.png"
    PilImage.new("RGB", (4, 4), (200, 30, 30)).save(path)
    return str(path)


def test_images_in_both_backends(png: str) -> None:
    scene = Scene(20, 20, (Image(png, 2, 2, 10, 10),))
    root = ET.fromstring(write_svg(scene))
    image = root.find(".//{http://www.w3.org/2000/svg}image")
    assert image is not None
    href = image.get("{http://www.w3.org/1999/xlink}href") or image.get("href") or ""
    assert href.startswith("data:image/png;base64,")
    pdf = write_pdf([scene])
    assert pdf == write_pdf([scene])
    assert b"/Subtype /Image" in pdf
    assert read_pdf(pdf).pages[0].images


def test_svg_backend_holds_one_scene() -> None:
    backend = SvgBackend()
    backend.begin_document()
    draw_scene(Scene(5, 5), backend)
    with pytest.raises(ValueError):
        draw_scene(Scene(5, 5), backend)
