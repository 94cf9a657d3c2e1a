"""cardgen: a tabletop card game kept as data, turned into print sheets, rulebooks and a solvability report."""

__version__ = "0.1.0"
