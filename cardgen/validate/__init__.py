"""cardgen.validate."""
