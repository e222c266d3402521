"""Renderers: text (grid, moves, JSON), and pictures."""
