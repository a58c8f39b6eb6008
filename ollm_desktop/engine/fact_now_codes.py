"""A code of letters and digits after "it's" and before "now" ("its sunflower99 now, my
roomate changed it", "it's hunter2 now", "it's b7k2q now"): the new value of what the chat
talks about (``fact_values._statement_slot`` asks; its own module because that one is full).

Why: "K is now X" and a capitalised "it's Kestrel now" were read, but a lower-case word
after "it's" was not, so a password or a code restated this way was never read at all. Only
a word with letters and digits: "it's fine now", "it's done now" are states, no value.
"""

from __future__ import annotations

IT_IS = frozenset(("it's", "its", "it’s", "that's", "thats"))


def coded_now(words: list[str], i: int) -> bool:
    """The word at ``i`` mixes letters and digits and "now" follows it (after "it's", or
    after a one-word key's copula: "password is sunflower99 now", as "is now X" was)."""
    word = words[i]
    return words[i + 1:i + 2] == ["now"] and word.isalnum() and \
        any(c.isdigit() for c in word) and any(c.isalpha() for c in word)
