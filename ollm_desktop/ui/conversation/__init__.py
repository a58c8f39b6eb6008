"""The conversation: its list model, the view and delegate that draw the rows, and the
actions on a message (copy, delete, branch, regenerate, recall, tool calls)."""
