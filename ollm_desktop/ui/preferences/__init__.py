"""Preferences, in pages: General, Models and servers, Memory, Appearance, Advanced."""
