"""What a print file says about itself: the "how to print" page and the duplex test sheet.

:func:`with_guide` puts a guide page (and, in a double-sided document, its
blank back) in front of imposed sheets. The page says to print at 100 % and
carries a 50 mm scale bar to check it, says which pages print double-sided and
how the printer flips them, lists per card size the pages, the count per sheet,
whether the cards lie sideways and the printed bleed (and why it is less than
3 mm when it is), explains how to read the duplex test sheet and where the
sheet template's ``back_offset_mm`` corrects a measured misregistration, and
how to cut on the crop marks. :func:`print_advice` gives the same sentences
for the gallery.

:func:`duplex_test_sheet` is a front page with registration targets and a back
page with the same targets and millimetre scales where they should land.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from babel.numbers import format_decimal

from cardgen.render.fonts import DEFAULT_FONT
from cardgen.render.scene import Box, Circle, Line, Primitive, Rect, Scene, Text
from cardgen.render.sheets import FooterInfo, Grid, ImposedSheets, SheetTemplate, footer_run, footer_text
from cardgen.render.text import layout_text

FULL_BLEED_MM = 3.0
"""The bleed a home duplex printer's misregistration needs; less is explained on the guide page."""

SCALE_MM = 50.0
"""Length of the guide page's scale bar."""

GUIDE_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "How to print: {title}",
        "scale": "Print at 100 % (\u201cactual size\u201d), never \u201cfit to page\u201d. Check it: the black bar on the first page is exactly 50 mm long.",
        "duplex": "Print all pages double-sided, flipping on the {flip}. Every sheet is a front page followed by its back page; a sheet with nothing on its back gets a blank back page, so the whole file prints in one double-sided run.",
        "simplex": "Print single-sided: no card in this file has a back.",
        "size": "Pages {pages}: {w} \u00d7 {h} mm cards, {n} per sheet{turned}, {bleed} mm of bleed around each.",
        "turned": ", turned sideways",
        "thin": " Less than {full} mm because {why}.",
        "why_template": "the sheet template prints at most {value} mm",
        "why_card": "the card's size in the spec has only {value} mm",
        "test": "Before the first double-sided run, print {file} double-sided. Hold it against a light: each target on the back should sit on its target on the front. Where a line of the front crosses a scale on the back, read the offset in mm (on the back side). Write the horizontal scales' reading as x and the vertical scales' reading as y under back_offset_mm in templates/sheets/{paper}.yaml and build again: the backs move by that much. Now x = {x} mm, y = {y} mm.",
        "cut": "Cut with a craft knife and a steel ruler along the line joining two opposite crop marks: the marks lie on the trim lines, {offset} mm beyond the bleed, {length} mm long. The picture runs past the trim by the bleed, so a cut a little off the line shows no white edge.",
        "flip_long_edge": "long edge",
        "flip_short_edge": "short edge",
        "guide": "how to print",
    },
    "pt_BR": {
        "title": "Como imprimir: {title}",
        "scale": "Imprima em 100 % (\u201ctamanho real\u201d), nunca \u201cajustar à página\u201d. Confira: a barra preta da primeira página mede exatamente 50 mm.",
        "duplex": "Imprima todas as páginas frente e verso, virando pela {flip}. Cada folha é uma página de frente seguida da página do seu verso; uma folha sem nada no verso ganha um verso em branco, para o arquivo inteiro sair numa só impressão frente e verso.",
        "simplex": "Imprima só a frente: nenhuma carta deste arquivo tem verso.",
        "size": "Páginas {pages}: cartas de {w} \u00d7 {h} mm, {n} por folha{turned}, com {bleed} mm de sangria em volta.",
        "turned": ", deitadas",
        "thin": " Menos de {full} mm porque {why}.",
        "why_template": "o modelo de folha imprime no máximo {value} mm",
        "why_card": "o tamanho da carta na especificação tem só {value} mm",
        "test": "Antes da primeira impressão frente e verso, imprima {file} frente e verso. Olhe contra a luz: cada alvo do verso deve cair sobre o seu alvo da frente. Onde uma linha da frente cruza uma escala do verso, leia o desvio em mm (do lado do verso). Escreva a leitura das escalas horizontais como x e a das verticais como y em back_offset_mm no arquivo templates/sheets/{paper}.yaml e gere de novo: os versos se movem esse tanto. Agora x = {x} mm, y = {y} mm.",
        "cut": "Corte com estilete e régua de aço na linha que une duas marcas de corte opostas: as marcas ficam nas linhas de corte, {offset} mm além da sangria, com {length} mm. A imagem passa do corte pela sangria, então um corte um pouco fora da linha não deixa borda branca.",
        "flip_long_edge": "borda longa",
        "flip_short_edge": "borda curta",
        "guide": "como imprimir",
    },
}
"""The guide's sentences in each card language (English for any other)."""


def guide_words(locale: str) -> dict[str, str]:
    """The guide's sentences in ``locale`` (English when it has none)."""
    return GUIDE_WORDS.get(locale, GUIDE_WORDS["en"])


def _mm(value: float, locale: str = "en") -> str:
    """A length as the card language writes numbers (0.5 in English, 0,5 in Portuguese)."""
    return format_decimal(round(value, 3), locale=locale if locale in GUIDE_WORDS else "en")


def _pages(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}\u2013{last}"


@dataclass(frozen=True)
class SizeRun:
    """Consecutive pages printing one card size."""

    first_page: int
    """1-based, in the final document."""
    last_page: int
    grid: Grid
    card_bleed: float
    """The bleed the card itself has (its spec size)."""


def size_runs(sheets: ImposedSheets, card_bleeds: dict[int, float], shift: int = 0) -> list[SizeRun]:
    """The pages of each card size, in page order (``shift``: pages put before the sheets)."""
    runs: list[SizeRun] = []
    for index, grid in enumerate(sheets.grids):
        if grid is None:
            continue
        page = index + 1 + shift
        if runs and runs[-1].grid is grid and runs[-1].last_page == page - 1:
            runs[-1] = replace(runs[-1], last_page=page)
        else:
            on_page = sheets.placements_on(index)
            bleed = max((card_bleeds.get(p.item_index, grid.bleed) for p in on_page), default=grid.bleed)
            runs.append(SizeRun(page, page, grid, bleed))
    return runs


def _is_duplex(sheets: ImposedSheets) -> bool:
    """True when the sheets have back pages (then every sheet has one)."""
    return any(p.side == "back" for p in sheets.placements)


def print_advice(template: SheetTemplate, locale: str, test_file: str, duplex: bool = True) -> list[str]:
    """The guide's general sentences (100 %, double-sided run, duplex test, cutting), for the gallery too."""
    words = guide_words(locale)
    flip = words[f"flip_{template.duplex_flip}"]
    out = [words["scale"]]
    out.append(words["duplex"].format(flip=flip) if duplex else words["simplex"])
    if duplex:
        offset = template.back_offset_mm
        out.append(words["test"].format(file=test_file, paper=template.name, x=_mm(offset.x, locale), y=_mm(offset.y, locale)))
    marks = template.crop_marks
    out.append(words["cut"].format(offset=_mm(marks.offset_mm, locale), length=_mm(marks.length_mm, locale)))
    return out


def guide_lines(template: SheetTemplate, sheets: ImposedSheets, card_bleeds: dict[int, float], locale: str, test_file: str, shift: int) -> list[str]:
    """Every sentence of the guide page for these sheets (pages numbered after ``shift`` guide pages)."""
    words = guide_words(locale)
    duplex = _is_duplex(sheets)
    general = print_advice(template, locale, test_file, duplex)
    lines = [general[0]]
    lines.append(general[1])
    for run in size_runs(sheets, card_bleeds, shift):
        grid = run.grid
        sentence = words["size"].format(
            pages=_pages(run.first_page, run.last_page), w=_mm(grid.trim_w, locale), h=_mm(grid.trim_h, locale), n=grid.capacity,
            turned=words["turned"] if grid.sideways else "", bleed=_mm(grid.bleed, locale),
        )
        if grid.bleed < FULL_BLEED_MM - 1e-9:
            if template.sheet_bleed_mm is not None and template.sheet_bleed_mm < run.card_bleed:
                why = words["why_template"].format(value=_mm(template.sheet_bleed_mm, locale))
            else:
                why = words["why_card"].format(value=_mm(run.card_bleed, locale))
            sentence += words["thin"].format(full=_mm(FULL_BLEED_MM, locale), why=why)
        lines.append(sentence)
    lines += general[2:]
    return lines


def scale_bar(x: float, y: float, length: float = SCALE_MM) -> list[Primitive]:
    """A solid black bar ``length`` mm long and 2 mm tall at (x, y), with mm ticks and labels every 10 mm below it."""
    out: list[Primitive] = [Rect(x, y, length, 2.0, fill="#000000")]
    for mm in range(int(length) + 1):
        tick = 2.5 if mm % 10 == 0 else (1.8 if mm % 5 == 0 else 1.0)
        out.append(Line(x + mm, y + 2.0, x + mm, y + 2.0 + tick, stroke="#000000", stroke_width=0.1))
        if mm % 10 == 0:
            out.append(Text(x + mm, y + 7.5, str(mm), DEFAULT_FONT, 7, "#000000", "middle"))
    out.append(Text(x + length + 3, y + 2.0, "mm", DEFAULT_FONT, 7, "#000000", "start"))
    return out


def _height(items: tuple[Primitive, ...] | list[Primitive], top: float) -> float:
    """How far below ``top`` the last baseline of a laid-out block lies, plus its descent."""
    baselines = [item.y for item in items if isinstance(item, Text)]
    return (max(baselines) - top + 1.5) if baselines else 0.0


def with_guide(sheets: ImposedSheets, template: SheetTemplate, footer: FooterInfo, card_bleeds: dict[int, float], locale: str, test_file: str) -> ImposedSheets:
    """``sheets`` with the guide page in front (and a blank back after it when the document is double-sided)."""
    duplex = _is_duplex(sheets)
    shift = 2 if duplex else 1
    words = guide_words(locale)
    lines = guide_lines(template, sheets, card_bleeds, locale, test_file, shift)
    guide_footer = replace(footer, sheet_words=(words["guide"], footer.sheet_words[1], footer.sheet_words[2]))
    page = _guide_page(template, words["title"].format(title=footer.title), lines, guide_footer)
    front: tuple[Scene, ...] = (page,)
    if duplex:
        blank_text = footer_text(guide_footer, 0, 0, None, blank=True)
        front += (Scene(template.paper.width_mm, template.paper.height_mm, (footer_run(template, blank_text),)),)
    placements = tuple(p.moved(shift) for p in sheets.placements)
    return ImposedSheets(front + sheets.pages, placements, ((),) * shift + sheets.crop_marks, (None,) * shift + sheets.grids)


def _guide_page(template: SheetTemplate, title: str, lines: list[str], footer: FooterInfo) -> Scene:
    paper, m = template.paper, template.margins_mm
    w, h = paper.width_mm, paper.height_mm
    left = m.left + 16.0
    width = w - 2 * left
    children: list[Primitive] = [Text(left, m.top + 22.0, title, "DejaVuSans-Bold", 16, "#000000", "start")]
    y = m.top + 32.0
    for index, line in enumerate(lines):
        block = layout_text(line, Box(left, y, width, max(10.0, h - y - m.bottom - 12)), DEFAULT_FONT, 10.0)
        children += block.items
        y += _height(block.items, y) + 4.0
        if index == 0:
            children += scale_bar(left, y)
            y += 14.0
    children.append(footer_run(template, footer_text(footer, 0, 0, None)))
    return Scene(w, h, tuple(children))
# --------------------------------------------------------------------------- duplex test sheet
def _target(x: float, y: float, radius: float, color: str) -> list[Primitive]:
    weight = 0.15
    return [
        Circle(x, y, radius, stroke=color, stroke_width=weight),
        Circle(x, y, radius / 2, stroke=color, stroke_width=weight),
        Line(x - radius * 1.4, y, x + radius * 1.4, y, stroke=color, stroke_width=weight),
        Line(x, y - radius * 1.4, x, y + radius * 1.4, stroke=color, stroke_width=weight),
    ]


def _scale(x: float, y: float, vertical: bool, color: str, span: int = 5) -> list[Primitive]:
    """A millimetre scale centred on (x, y), ticks from -span to +span mm, labelled every 5."""
    out: list[Primitive] = []
    for mm in range(-span, span + 1):
        tick = 3.0 if mm % 5 == 0 else 1.5
        if vertical:
            out.append(Line(x, y + mm, x + tick, y + mm, stroke=color, stroke_width=0.1))
        else:
            out.append(Line(x + mm, y, x + mm, y + tick, stroke=color, stroke_width=0.1))
        if mm % 5 == 0:
            label = f"{mm:+d}" if mm else "0"
            if vertical:
                out.append(Text(x + 3.5, y + mm + 0.8, label, DEFAULT_FONT, 6, color, "start"))
            else:
                out.append(Text(x + mm, y + 5.5, label, DEFAULT_FONT, 6, color, "middle"))
    return out


def duplex_test_sheet(template: SheetTemplate, footer: FooterInfo) -> ImposedSheets:
    """A front page with registration targets and a back page with the same targets
    where they should land after duplex printing, plus mm scales to read the offset.

    Hold the printed sheet against light: each back target should sit on its
    front target; the front's reference lines cross the back's scales at the
    misregistration in mm. The back page is moved by the template's
    ``back_offset_mm``, so a corrected template reads zero on a reprint.
    """
    paper, m = template.paper, template.margins_mm
    w, h = paper.width_mm, paper.height_mm
    inset = 25.0
    points = [(inset, inset), (w - inset, inset), (w / 2, h / 2), (inset, h - inset - 10), (w - inset, h - inset - 10)]

    offset = template.back_offset_mm

    def behind(x: float, y: float) -> tuple[float, float]:
        """Where (x, y) of the front lies on the back page, moved by the template's back offset."""
        bx, by = (w - x, y) if template.mirror_columns else (x, h - y)
        return bx + offset.x, by + offset.y

    front: list[Primitive] = [Rect(m.left, m.top, w - m.left - m.right, h - m.top - m.bottom, stroke="#000000", stroke_width=0.1)]
    back: list[Primitive] = [Rect(m.left + offset.x, m.top + offset.y, w - m.left - m.right, h - m.top - m.bottom, stroke="#000000", stroke_width=0.1)]
    for x, y in points:
        front.extend(_target(x, y, 5.0, "#000000"))
        bx, by = behind(x, y)
        back.extend(_target(bx, by, 5.0, "#000000"))
        # Reference lines on the front point towards the page centre; the back
        # carries a mm scale exactly where each line shows through.
        dx = 1.0 if x <= w / 2 else -1.0
        dy = 1.0 if y <= h / 2 else -1.0
        front.append(Line(x + dx * 8, y, x + dx * 20, y, stroke="#000000", stroke_width=0.1))
        front.append(Line(x, y + dy * 8, x, y + dy * 20, stroke="#000000", stroke_width=0.1))
        sx, sy = behind(x + dx * 14, y)
        back.extend(_scale(sx, sy, vertical=True, color="#000000"))
        sx, sy = behind(x, y + dy * 14)
        back.extend(_scale(sx, sy, vertical=False, color="#000000"))
    flip = template.duplex_flip.replace("_", " ")
    front.append(Text(w / 2, inset + 10, f"DUPLEX TEST · FRONT · flip on {flip}", DEFAULT_FONT, 10, "#000000", "middle"))
    bx, by = behind(w / 2, inset + 10)
    back.append(Text(bx, by, f"DUPLEX TEST · BACK · flip on {flip}", DEFAULT_FONT, 10, "#000000", "middle"))

    pages = (
        Scene(w, h, tuple(front) + (footer_run(template, footer_text(footer, 1, 1, "front")),)),
        Scene(w, h, tuple(back) + (footer_run(template, footer_text(footer, 1, 1, "back")),)),
    )
    return ImposedSheets(pages=pages, placements=(), crop_marks=((), ()), grids=(None, None))
