"""First prompts a new user can try: shown on the first-run screen and in an empty chat, so
that neither is a blank page. Plain, short, and useful on a small local model."""

SUGGESTED_PROMPTS = (
    "Explain what a context window is, in two sentences.",
    "Help me plan a three-day trip to Lisbon on a small budget.",
    "Write a Python function that removes duplicate lines from a file.",
)
