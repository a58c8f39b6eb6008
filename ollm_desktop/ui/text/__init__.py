"""How text reads and renders wherever it is shown: Markdown, code blocks, the counts and
labels of rows. Shared by the conversation and the side panel; it imports no feature."""
