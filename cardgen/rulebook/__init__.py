"""cardgen.rulebook."""
