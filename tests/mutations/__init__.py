"""Mutation tests: broken copies of the shipped specs must each be caught with the right finding code."""
