"""The first-run screen (`firstRunScreen`): the server, the installed models, a download."""
