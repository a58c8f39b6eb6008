"""The chat list on the left: its rows, search and the actions on a chat."""
