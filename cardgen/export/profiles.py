"""Print-shop profiles: what a shop wants, kept as YAML data in ``templates/profiles/``.

A profile is one file, ``<name>.yaml``, validated by :class:`Profile` (strict,
unknown keys refused). Adding a shop means adding a file; nothing in the code
names a shop. Two output formats exist:

* ``pdf``: one PDF per deck, one card side per page, every page trim + 2 *
  ``bleed_mm`` with its TrimBox and BleedBox set, fonts embedded (the PDF
  backend embeds subsets of the bundled DejaVu TTFs), every copy of a card
  repeated, the two sides of each card on consecutive pages in ``page_order``;
* ``png``: one RGB PNG per distinct face at ``dpi``, its pixel size taken from
  ``pixel_sizes`` when the face's trim matches a named card size (e.g. poker
  825 x 1125 px), otherwise ``(trim + 2 * bleed_mm) / 25.4 * dpi`` rounded; a
  ``manifest.json`` gives each file's deck, side, reverse and copy count.

Faces are never scaled to a shop's size: :func:`cardgen.export.raster.reframe`
centres the trim and extends (or cuts back) the background to the new bleed.
When ``ink_limit_percent`` is set, every colour the exported faces paint is
checked as naive CMYK (:mod:`cardgen.export.ink`). When ``products_mm`` lists the
shop's card products, each face is exported at its product's trim (cardgen's
63 x 88 mm poker card on DriveThruCards' 2.5 x 3.5 in), and a size the shop does
not make is reported (CG602).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from cardgen.export.folder_page import write_folder_page
from cardgen.export.ink import ink_findings
from cardgen.export.pdfx import OutputIntent, read_icc, write_pdfx
from cardgen.export.preview import ordered_faces
from cardgen.fsmove import write_atomic
from cardgen.export.raster import bitmap_problem, mm_to_px, png_bytes, px_to_mm, rasterise, reframe, trim_of, with_bleed
from cardgen.findings import Finding, InputError, Severity
from cardgen.limits import MAX_BITMAP_PIXELS, MAX_BITMAP_SIDE
from cardgen.progress import NoProgress, ProgressHook
from cardgen.render.faces import Face, card_faces, print_order
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import Box, Rect, Scene
from cardgen.render.widgets import local
from cardgen.spec.load import LoadedSpec, inside_folder
from cardgen.spec.models import SIZE_PRESETS, SizeName
from cardgen.spec.yaml_load import load_yaml
from cardgen.validate.registry import register_codes
from cardgen.resources import TEMPLATES

PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9_\-]*")
"""What a profile name may be: it names a file in the profiles folder, so no path."""
PROFILES_DIR: Path = TEMPLATES / "profiles"
"""The bundled profiles (drivethrucards, gamecrafter, makeplayingcards)."""


def _pixel_size(size: tuple[int, int]) -> tuple[int, int]:
    """A PNG size within the bitmap budget (:data:`~cardgen.limits.MAX_BITMAP_PIXELS`, :data:`~cardgen.limits.MAX_BITMAP_SIDE`)."""
    width, height = size
    if width < 1 or height < 1:
        raise ValueError(f"{width}x{height} px is not a size; both sides must be at least 1 px")
    problem = bitmap_problem(width, height)
    if problem:
        raise ValueError(problem)
    return size


PixelSize = Annotated[tuple[int, int], AfterValidator(_pixel_size)]


class OutputIntentSpec(BaseModel):
    """The printing condition of a CMYK (PDF/X-1a) profile: written as the PDF's output intent."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    identifier: str = Field(min_length=1, description="OutputConditionIdentifier: a characterisation registered at the ICC (\"CGATS TR 001\" for SWOP, \"FOGRA39\") or, with icc_profile, the profile's own name.")
    condition: str = Field(default="", description="The printing condition in words (OutputCondition).")
    registry: str = Field(default="http://www.color.org", description="Where the identifier is registered (RegistryName).")
    icc_profile: str | None = Field(
        default=None,
        description="A CMYK output ICC profile file to embed (DestOutputProfile), relative to the profile file; "
        "needed when the identifier is not a registered characterisation. Use the profile the shop names.",
    )


class Profile(BaseModel):
    """A print shop's file requirements."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", description="The profile's name; also the output folder name. Must match the file name.")
    description: str = Field(description="One line on what the shop makes from these files.")
    guidelines: str = Field(default="", description="Where the shop documents its requirements (for people; never fetched).")
    format: Literal["pdf", "png"] = Field(description="pdf: one PDF per deck, one side per page. png: one image per distinct face.")
    bleed_mm: float = Field(ge=0, le=20, description="Bleed on every side of the trim, in mm (1/8 in = 3.175 mm).")
    dpi: int = Field(default=300, ge=72, le=1200, description="Resolution of PNG output.")
    pixel_sizes: dict[SizeName, PixelSize] = Field(
        default_factory=dict,
        description=f"Exact PNG sizes [width, height] in px, bleed included, per named card size (each side at most {MAX_BITMAP_SIDE:,} px, at most {MAX_BITMAP_PIXELS:,} px in all).",
    )
    page_order: Literal["back-front", "front-back"] = Field(default="front-back", description="PDF: which side of each card comes first.")
    ink_limit_percent: float | None = Field(default=None, gt=0, le=400, description="Maximum total ink (C+M+Y+K, naive conversion) in percent; null: not checked.")
    components: bool = Field(default=False, description="Also export tiles and markers (faces of components).")
    products_mm: dict[str, tuple[float, float]] = Field(
        default_factory=dict,
        description="The shop's card products by name, each its own trim [width, height] in mm (poker: [63.5, 88.9]). "
        "A face within product_tolerance_mm of a product is exported at the product's trim; a face matching none "
        "is reported (CG602). Empty: every size is printed at the game's own trim.",
    )
    product_tolerance_mm: float = Field(default=2.0, ge=0, le=10, description="How far a game's trim may differ from a product's, per side, in mm.")
    colour: Literal["rgb", "cmyk"] = Field(
        default="rgb",
        description="pdf only: rgb paints sRGB colours; cmyk writes PDF/X-1a: every colour DeviceCMYK (naive conversion, "
        "dark text in solid black, total ink capped at ink_limit_percent) with the output intent below.",
    )
    output_intent: OutputIntentSpec | None = Field(default=None, description="cmyk only (and required there): the printing condition the files are prepared for.")

    @model_validator(mode="after")
    def _cmyk_needs_an_intent(self) -> "Profile":
        if self.colour == "cmyk" and (self.format != "pdf" or self.output_intent is None):
            raise ValueError("colour: cmyk needs format: pdf and an output_intent")
        if self.colour == "rgb" and self.output_intent is not None:
            raise ValueError("output_intent is only used with colour: cmyk")
        return self

    def product_for(self, width: float, height: float) -> tuple[str, float, float] | None:
        """(name, trim width, trim height) of the shop's product for a ``width`` x ``height`` mm card, if any."""
        tolerance = self.product_tolerance_mm + 1e-9
        for name, (w, h) in self.products_mm.items():
            if abs(w - width) <= tolerance and abs(h - height) <= tolerance:
                return name, w, h
        return None


PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
"""A profile's name (matched whole): also its file's stem and its output folder's name."""



def load_profile(name: str, profiles_dir: Path | None = None) -> Profile:
    """Read ``<name>.yaml`` from ``profiles_dir`` (default: the bundled folder); InputError when unusable."""
    folder = profiles_dir or PROFILES_DIR
    path = folder / f"{name}.yaml"
    if not PROFILE_NAME.fullmatch(name) or not inside_folder(folder, path):
        raise InputError(f"{name!r} is not a profile name (lower-case letters, digits, '-' and '_'; known: {', '.join(available_profiles(folder)) or 'none'})", name)
    if not path.is_file():
        known = ", ".join(available_profiles(folder)) or "none"
        raise InputError(f"no print-shop profile named {name!r} (known: {known})", str(path))
    data, smap = load_yaml(path, str(path))  # an InputError names the file, line and column
    try:
        profile = Profile.model_validate(data)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        loc = tuple(p for p in first["loc"] if isinstance(p, (str, int)))
        place = smap.place(loc)
        where = ".".join(str(p) for p in loc) or "profile"
        raise InputError(f"the profile file is not valid: {where}: {first['msg']}", str(path), place.line, place.column) from error
    if profile.name != name:
        raise InputError(f"the profile says name: {profile.name!r} but its file is {name}.yaml", str(path))
    intent = profile.output_intent
    if intent is not None and intent.icc_profile is not None:
        icc = (folder / intent.icc_profile).resolve()
        read_icc(icc)  # an unusable file is refused now, naming it
        profile = profile.model_copy(update={"output_intent": intent.model_copy(update={"icc_profile": str(icc)})})
    return profile


def available_profiles(profiles_dir: Path | None = None) -> list[str]:
    """Names of the profile files in ``profiles_dir`` (default: the bundled folder)."""
    folder = profiles_dir or PROFILES_DIR
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


@dataclass
class ProfileExport:
    """What one profile export wrote and found."""

    files: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def size_name(face: Face) -> str | None:
    """The named card size whose trim equals the face's (portrait), if any."""
    for name, (width, height) in SIZE_PRESETS.items():
        if abs(face.size.width - width) < 1e-6 and abs(face.size.height - height) < 1e-6:
            return name
    return None


def png_pixels(profile: Profile, face: Face) -> tuple[int, int]:
    """The PNG size of a face under ``profile``: the named size's pixels, else its product's (or its own) trim + bleed at the dpi."""
    name = size_name(face)
    for size, pixels in profile.pixel_sizes.items():
        if size == name:
            return pixels
    product = profile.product_for(face.size.width, face.size.height)
    if product is not None:
        return (mm_to_px(product[1] + 2 * profile.bleed_mm, profile.dpi), mm_to_px(product[2] + 2 * profile.bleed_mm, profile.dpi))
    trim = trim_of(face.scene)
    return (mm_to_px(trim.w + 2 * profile.bleed_mm, profile.dpi), mm_to_px(trim.h + 2 * profile.bleed_mm, profile.dpi))


PRODUCT_CODE = "CG602"
register_codes({PRODUCT_CODE: "A card size of the game is not one of the print shop's products (the profile's products_mm)."})


def product_findings(loaded: LoadedSpec, faces: list[Face], profile: Profile) -> list[Finding]:
    """One finding per deck or component whose card size matches none of the shop's products."""
    if not profile.products_mm:
        return []
    spec = loaded.spec
    assert spec is not None
    findings: list[Finding] = []
    seen: set[str] = set()
    products = ", ".join(f"{name} {w:g}x{h:g}" for name, (w, h) in profile.products_mm.items())
    places = {deck.id: ("decks", i) for i, deck in enumerate(spec.decks)} | {c.id: ("components", i) for i, c in enumerate(spec.components)}
    for face in faces:
        if face.group in seen or profile.product_for(face.size.width, face.size.height) is not None:
            continue
        seen.add(face.group)
        path = places.get(face.group, ())
        findings.append(loaded.place_finding(PRODUCT_CODE, Severity.ERROR, path + ("size",) if path else (), f"{face.group}: {face.size.width:g}x{face.size.height:g} mm cards are not one of {profile.name}'s products ({products})", "choose a size the shop makes, or another shop"))
    return findings


def shop_page(profile: Profile, face: Face) -> Scene:
    """The face on a page of the shop's trim (its product's, when it has one) plus the profile's bleed, unscaled."""
    product = profile.product_for(face.size.width, face.size.height)
    if product is None:
        return with_bleed(face.scene, profile.bleed_mm)
    _, width, height = product
    bleed = profile.bleed_mm
    page = reframe(face.scene, width + 2 * bleed, height + 2 * bleed)
    return Scene(page.width_mm, page.height_mm, page.children, trim_box=Box(bleed, bleed, width, height), bleed_box=page.bleed_box)


def _blank_like(scene: Scene) -> Scene:
    """A white page with the scene's size and print boxes (the back of a card printed on one side only)."""
    return Scene(scene.width_mm, scene.height_mm, (Rect(0.0, 0.0, scene.width_mm, scene.height_mm, fill="#ffffff"),), scene.trim_box, scene.bleed_box)


def _selected(profile: Profile, faces: list[Face]) -> list[Face]:
    return [f for f in faces if profile.components or f.kind != "component"]


def export_profile(
    loaded: LoadedSpec, profile: Profile, out: Path, locale: str | None = None, progress: ProgressHook | None = None
) -> ProfileExport:
    """Write the game's files for ``profile`` under ``out`` (normally ``output/<game>/<profile>/``); ``progress`` counts the files."""
    spec = loaded.spec
    if spec is None:
        raise ValueError("the spec did not load")
    locale = locale or spec.locales[0]
    faces = _selected(profile, card_faces(loaded, locale))
    result = ProfileExport()
    if profile.ink_limit_percent is not None:
        result.findings.extend(ink_findings(loaded, faces, profile.ink_limit_percent, profile.name, capped_here=profile.colour == "cmyk"))
    result.findings.extend(product_findings(loaded, faces, profile))
    if profile.format == "pdf":
        _export_pdf(spec.id, local(spec.title, locale, spec.locales[0]), profile, faces, out, result, progress or NoProgress())
    else:
        _export_png(spec.id, profile, faces, out, result, progress or NoProgress())
    write_folder_page(spec, out, "print-shop", locale, [profile.description, *result.notes], name=profile.name)
    return result


def _export_pdf(game: str, title: str, profile: Profile, faces: list[Face], out: Path, result: ProfileExport, progress: ProgressHook) -> None:
    groups: dict[str, list[Face]] = {}
    for face in faces:
        groups.setdefault(face.group, []).append(face)
    progress.start(len(groups), f"{profile.name} PDFs")
    for group, members in groups.items():
        pages: list[Scene] = []
        cards = 0
        for front, reverse in print_order(members):
            front_page = shop_page(profile, front)
            back_page = shop_page(profile, reverse) if reverse is not None else _blank_like(front_page)
            pair = [back_page, front_page] if profile.page_order == "back-front" else [front_page, back_page]
            for _copy in range(front.copies):
                pages.extend(pair)
                cards += 1
        path = out / f"{game}-{group}.pdf"
        write_atomic(path, _pdf_bytes(profile, pages, f"{title} – {group} ({profile.name})"))
        result.files.append(path)
        result.notes.append(f"{path.name}: {cards} cards, {len(pages)} pages ({profile.page_order})")
        progress.advance()


def _pdf_bytes(profile: Profile, pages: list[Scene], title: str) -> bytes:
    """The pages as the profile's PDF: RGB, or CMYK PDF/X-1a with its output intent."""
    intent = profile.output_intent
    if profile.colour == "rgb" or intent is None:
        return write_pdf(pages, title=title)
    icc = read_icc(Path(intent.icc_profile)) if intent.icc_profile is not None else None
    return write_pdfx(pages, OutputIntent(intent.identifier, intent.condition, intent.registry, icc), profile.ink_limit_percent, title)


def _export_png(game: str, profile: Profile, faces: list[Face], out: Path, result: ProfileExport, progress: ProgressHook) -> None:
    manifest: list[dict[str, object]] = []
    for face in faces:  # every size checked before the first file is written
        problem = bitmap_problem(*png_pixels(profile, face))
        if problem:
            raise InputError(f"{problem}; lower the profile's dpi or pixel size", f"{profile.name} profile, {face.group}/{face.key}.png at {profile.dpi} dpi")
    progress.start(len(faces), f"{profile.name} PNGs")
    for face in ordered_faces(faces):
        width_px, height_px = png_pixels(profile, face)
        scene = reframe(face.scene, px_to_mm(width_px, profile.dpi), px_to_mm(height_px, profile.dpi))
        path = out / face.group / f"{face.key}.png"
        where = f"{profile.name} profile, {face.group}/{face.key}.png at {profile.dpi} dpi"
        write_atomic(path, png_bytes(rasterise(scene, width_px, height_px, where), profile.dpi))
        result.files.append(path)
        progress.advance()
        manifest.append(
            {
                "file": f"{face.group}/{face.key}.png",
                "group": face.group,
                "card": face.card,
                "side": "back" if face.kind == "back" else ("face2" if face.face_index else face.kind),
                "reverse": f"{face.group}/{face.reverse}.png" if face.reverse else None,
                "copies": face.copies,
                "pixels": [width_px, height_px],
            }
        )
    path = out / "manifest.json"
    record = {"game": game, "profile": profile.name, "dpi": profile.dpi, "bleed_mm": profile.bleed_mm, "faces": manifest}
    write_atomic(path, (json.dumps(record, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    result.files.append(path)
    result.notes.append(f"{len(manifest)} PNG faces at {profile.dpi} dpi")
