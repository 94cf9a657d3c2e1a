"""cardgen.cli."""
