"""The facts panel (issue 22): what the app remembers of the chat, and the user's changes to
it. ``entries`` says how one fact reads, ``panel`` is the dock, ``feature`` installs it into
the built window (the Facts tab beside the goal, its action, Undo in the window's bar)."""

from ollm_desktop.ui.side_panel.facts.feature import install

__all__ = ["install"]
