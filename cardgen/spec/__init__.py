"""cardgen.spec."""
