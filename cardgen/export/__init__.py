"""Exports for screens, print shops and virtual tabletops, built on the render layer.

* :mod:`cardgen.export.raster`: face scenes to pixels (reportlab PDF in memory,
  rasterised with pypdfium2, saved as deterministic PNG with Pillow), and the
  re-framing of a face onto a canvas with a different bleed;
* :mod:`cardgen.export.preview`: a PNG per face and a labelled contact sheet;
* :mod:`cardgen.export.tts`: Tabletop Simulator deck sheets and a saved object;
* :mod:`cardgen.export.profiles`: print-shop profiles kept as YAML data;
* :mod:`cardgen.export.ink`: naive CMYK total-ink check of scene colours;
* :mod:`cardgen.export.gallery`: the static ``index.html`` written by ``cardgen build``.

Nothing here knows a particular game.
"""
