"""Widgets: the named drawing routines a layout places into boxes on a card face.

What the rest of cardgen and each game's ``widgets.py`` import: the kit
(:mod:`cardgen.render.widget_kit`: the registry, :class:`WidgetContext`, the
shared helpers) with the generic widgets (:mod:`cardgen.render.standard_widgets`)
registered, as importing this module imports both.
"""

from __future__ import annotations

from cardgen.render import standard_widgets as standard_widgets
from cardgen.render.widget_kit import (
    BODY_FONT as BODY_FONT,
    DEFAULT_INK as DEFAULT_INK,
    TITLE_FONT as TITLE_FONT,
    PieceInfo as PieceInfo,
    Resources as Resources,
    TextReport as TextReport,
    WidgetContext as WidgetContext,
    WidgetFn as WidgetFn,
    get_widget as get_widget,
    load_game_widgets as load_game_widgets,
    local as local,
    register_widget as register_widget,
    symbol_size as symbol_size,
    widget as widget,
    widget_names as widget_names,
    widget_params as widget_params,
)
