"""Read-only data shipped with the app (tokenizer vocabulary, icons, desktop files).

Installed, this folder is the package ``ollm_desktop.resources``.
"""
