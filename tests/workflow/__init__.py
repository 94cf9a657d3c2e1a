"""Tests of the designer's workflow: spreadsheet card sheets, `cardgen new`, `cardgen watch`, CI hooks."""
