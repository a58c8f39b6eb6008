"""Measured memory: what a long chat still knows, against the strategies peers use.

See docs/memory.md. ``python -m bench.memory --help``.
"""
