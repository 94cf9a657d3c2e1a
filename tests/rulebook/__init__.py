"""Tests of the rulebook builder (templates, catalogs, PDF and Markdown)."""
