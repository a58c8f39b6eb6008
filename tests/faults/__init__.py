"""Fault-injection suite: kills, Ollama faults, bad summaries, hostile content, bad data."""
