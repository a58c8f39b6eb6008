"""Benchmarks against the performance goals; ``run_all.py`` runs them all."""
