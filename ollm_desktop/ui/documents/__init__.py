"""Attached documents in the window (issue 31): the composer's button, the document rows at
the top of the conversation, a reply's sources and the reader."""
