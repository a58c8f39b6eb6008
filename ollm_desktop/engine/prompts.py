"""Every prompt the engine sends to the summarizer (goal-aware, LobeChat-style sections).

The engine owns these prompts; the caller only runs the model.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.images import text_with_images
from ollm_desktop.engine.models import GoalState, Message

LEVEL_GUIDANCE = {
    3: "DETAILED: keep key decisions, facts, code references and short essential snippets",
    2: "MODERATE: keep main points, decisions and code references only",
    1: "COMPACT: keep only critical facts, locked decisions and next steps",
}

_RULES = """\
MUST: write in the language of the conversation; copy every technical term, code identifier, \
file path, URL, number with its unit and user-defined name exactly; stay factually accurate; \
stay within {target} tokens.
SHOULD: use bullet points in chronological order; merge repeated information; {guidance}.
MAY: drop greetings, filler and pleasantries; abbreviate obvious context.
Keep goal marker lines exactly as written ([GOAL] ..., [DECISION] ... - LOCKED, \
[CHECKPOINT] ... - STATUS, [NEXT] ...): they track the conversation's goal.
Output only the summary: do not answer the user, do not continue the conversation."""

SECTIONS = """\
Write Markdown with these sections, omitting empty ones:
## Context (1-2 sentences)
## Key Information (facts, specs, names, file paths, URLs)
## Decisions & Conclusions
## Action Items (next steps, open questions)
## Code & Technical (only essential snippets, in code blocks)
"""

SUMMARY_SYSTEM = """\
You compress chat history into a checkpoint that replaces it in an assistant's context window. \
Whoever reads the checkpoint must be able to continue the conversation seamlessly from it alone.

""" + SECTIONS + "\n" + _RULES

# The summary request that shares the chat's prefix (``summary_requests``): the chat's own
# system message and turns, then this as the last user turn. Its first words are how the
# gate (echo check) and the benchmark's relay tell it from a chat turn.
CHAT_SUMMARY_OPENING = "Compress the chat history above into a checkpoint"
CHAT_SUMMARY = CHAT_SUMMARY_OPENING + """\
 of at most {target} tokens. The conversation turns above (after the notes in the first \
message, not the notes themselves) are about to leave your context window: the checkpoint \
replaces them, so whoever reads it must be able to continue from it alone. Do not reply to the \
last message: write the checkpoint.

""" + SECTIONS + "\n" + _RULES

CONDENSE_SYSTEM = """\
You shorten an existing conversation checkpoint so it takes less room in an assistant's context \
window. Keep its Markdown sections where they still have content.

""" + _RULES

_TAG = re.compile(r"</?(chat_history|checkpoint|previous_checkpoint|goal|focus|user|assistant"
                  r"|system|compressed_history_summary|active_goal)\b", re.IGNORECASE)


def _neutralise(text: str) -> str:
    """Keep message text from closing our XML-ish wrappers."""
    return _TAG.sub(lambda m: m.group(0).replace("<", "‹"), text)


def goal_context(goal: GoalState) -> str:
    if goal.is_empty:
        return ""
    lines = [f"ACTIVE GOAL: {goal.description or '(unnamed)'}",
             f"Priority: {goal.priority}", f"Status: {goal.status}"]
    for title, status in (("COMPLETED", "completed"), ("IN PROGRESS", "in-progress"),
                          ("PENDING", "pending")):
        items = [c.description for c in goal.checkpoints if c.status == status]
        if items:
            lines.append(f"{title}: " + "; ".join(items))
    locked = [d.description for d in goal.decisions if d.locked]
    if locked:
        lines.append("LOCKED DECISIONS: " + "; ".join(locked))
    if goal.artifacts:
        lines.append("ARTIFACTS: " + "; ".join(f"{a.action} {a.path}" for a in goal.artifacts))
    lines.append(
        "Preserve decisions, completed checkpoints, files, blockers and next steps toward the "
        "goal; summarise off-topic and exploratory parts aggressively."
    )
    return "<goal>\n" + "\n".join(lines) + "\n</goal>\n"


def format_history(messages: list[Message], verbatim_ids: set[str]) -> str:
    parts = ["<chat_history>"]
    for message in messages:
        attr = ' kept="verbatim"' if message.id in verbatim_ids else ""
        text = _neutralise(text_with_images(message))
        parts.append(f"<{message.role}{attr}>{text}</{message.role}>")
    parts.append("</chat_history>")
    return "\n".join(parts)


def summary_prompt(
    messages: list[Message],
    *,
    verbatim_ids: set[str],
    target: int,
    level: int,
    goal: GoalState,
    focus: str | None,
    previous: str | None = None,
    stricter: str | None = None,
) -> list[dict[str, str]]:
    """Prompt for a new checkpoint of ``messages`` (optionally folding ``previous`` into it)."""
    system = SUMMARY_SYSTEM.format(target=target, guidance=LEVEL_GUIDANCE[level])
    body = goal_context(goal)
    if focus:
        body += f"<focus>The user asked this summary to focus on: {_neutralise(focus)}. " \
                "Keep everything related to it in detail.</focus>\n"
    if previous:
        body += ("<previous_checkpoint>\n" + _neutralise(previous) +
                 "\n</previous_checkpoint>\nFold the previous checkpoint into the new one.\n")
    body += format_history(messages, verbatim_ids)
    if verbatim_ids:
        body += ("\nMessages marked kept=\"verbatim\" stay in the context word for word: use them "
                 "to understand the rest, do not repeat them.")
    body += f"\nCompress the chat history above into a checkpoint of at most {target} tokens."
    if stricter:
        body += "\n" + stricter
    return [{"role": "system", "content": system}, {"role": "user", "content": body}]


# The same request in fewer words, for a window too small for the full rules.
CHAT_SUMMARY_SHORT = CHAT_SUMMARY_OPENING + """\
 of at most {target} tokens: the conversation turns above (after the notes) leave your context \
and the checkpoint replaces them. Do not reply to the last message. Markdown sections: \
## Context, ## Key Information, ## Decisions & Conclusions, ## Action Items (omit empty ones). \
Copy every identifier, path, URL, number with its unit and name exactly; keep goal marker lines \
as written; output only the checkpoint."""


# Opens the turns of the span that the last chat request had already left out (the oldest):
# they travel in the summary's last turn after the instructions, so that the rest of the
# request still comes from the server's cache. ``instruction_text`` stops here.
EARLIER_TURNS = "<earlier_turns_left_out_above>"


def chat_summary_request(*, target: int, level: int, goal: GoalState, focus: str | None,
                         folded: list[Message], users_kept: bool, fold_previous: bool = False,
                         stricter: str | None = None, short: bool = False,
                         earlier: list[Message] | None = None) -> str:
    """The last user turn of a summary request that reuses the chat's prefix; ``earlier``: span
    messages the chat request no longer carried, quoted after the instructions."""
    text = CHAT_SUMMARY_SHORT.format(target=target) if short else \
        CHAT_SUMMARY.format(target=target, guidance=LEVEL_GUIDANCE[level])
    if fold_previous:
        text += ("\nThe notes above hold the previous checkpoint ([Checkpoint, level ...]): "
                 "fold it into the new one, which replaces it.")
    if not goal.is_empty:  # the goal block is in the notes above: named, not repeated
        text += ("\nThe notes above state the active goal: preserve decisions, completed "
                 "checkpoints, files, blockers and next steps toward it; summarise off-topic and "
                 "exploratory parts aggressively.")
    if focus:
        text += (f"\n<focus>The user asked this summary to focus on: {_neutralise(focus)}. "
                 "Keep everything related to it in detail.</focus>")
    if folded:  # quoted in the notes already: named by their first words, not repeated
        starts = "; ".join(f"\u201c{' '.join(m.content.split()[:10])}\u2026\u201d"
                           for m in folded)
        text += ("\nAlso fold in these earlier messages quoted in the notes above (they leave "
                 f"the context with this checkpoint): {_neutralise(starts)}.")
    if users_kept:
        text += ("\nThe user's messages above stay in the context word for word: use them to "
                 "understand the replies, do not repeat them.")
    if earlier:
        text += ("\nThe oldest turns of this part were already left out of the conversation "
                 "above; they come first and belong in the checkpoint too:")
    if stricter:
        text += "\n" + stricter
    if earlier:
        text += "\n\n" + EARLIER_TURNS + "\n" + format_history(earlier, set())
    return text


def merge_request(*, count: int, target: int, stricter: str | None = None) -> str:
    """The last user turn of a request (after the chat's system message) that merges the
    checkpoints in its notes into one base checkpoint."""
    text = (f"{CHAT_SUMMARY_OPENING} of at most {target} tokens: rewrite the {count} "
            "checkpoints in the notes above (the parts headed [Checkpoint, level ...]) as one, "
            "oldest first. Keep their Markdown sections where they still have content; drop "
            "repetition. Output only the checkpoint.\n\n"
            + _RULES.format(target=target, guidance=LEVEL_GUIDANCE[1]))
    return text + ("\n" + stricter if stricter else "")


def instruction_text(prompt: list[dict[str, str]]) -> str:
    """The instructions of a summary prompt, without the chat it carries: the last turn of a
    request that reuses the chat's prefix, else the whole prompt (its own shape marks its
    content with tags)."""
    if prompt and prompt[-1]["content"].startswith(CHAT_SUMMARY_OPENING):
        return prompt[-1]["content"].split("\n\n" + EARLIER_TURNS, 1)[0]
    return "\n".join(m["content"] for m in prompt)


def condense_prompt(
    text: str, *, target: int, level: int, stricter: str | None = None
) -> list[dict[str, str]]:
    """Prompt to age or merge checkpoints: re-summarise their own text, never the history."""
    system = CONDENSE_SYSTEM.format(target=target, guidance=LEVEL_GUIDANCE[level])
    body = f"<checkpoint>\n{_neutralise(text)}\n</checkpoint>\n" \
           f"Rewrite this checkpoint in at most {target} tokens."
    if stricter:
        body += "\n" + stricter
    return [{"role": "system", "content": system}, {"role": "user", "content": body}]


def retry_note(problem: str, target: int) -> str:
    """Why the previous answer was refused, so a small model can do better on its one retry."""
    return (f"Your previous answer could not be used ({problem[:160]}). Write only the "
            f"checkpoint itself, in at most {target} tokens, with the Markdown sections above: "
            "no reply to the user, no refusal, no reasoning, no instructions.")


def stricter_note(previous_tokens: int, target: int) -> str:
    return (f"Your previous attempt was rejected ({previous_tokens} tokens). Stay strictly under "
            f"{target} tokens: fewer bullets, shorter phrases, no code unless essential.")


_THINK = re.compile(r"<think>.*?</think>|<thinking>.*?</thinking>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```(?:markdown|md)?\s*\n(.*)\n```\s*$", re.DOTALL)


def clean_summary(text: str) -> str:
    """Strip reasoning blocks and a wrapping code fence some models add."""
    text = _THINK.sub("", text or "").strip()
    match = _FENCE.match(text)
    return match.group(1).strip() if match else text


_SECTION = re.compile(r"^#{1,4}\s*(.+?)\s*$", re.MULTILINE)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.+)$")


def section_items(summary: str, *names: str) -> list[str]:
    """Bullet items under the first section whose title starts with one of ``names``."""
    matches = list(_SECTION.finditer(summary))
    for i, match in enumerate(matches):
        title = match.group(1).lower()
        if any(title.startswith(n.lower()) for n in names):
            end = matches[i + 1].start() if i + 1 < len(matches) else len(summary)
            items = []
            for line in summary[match.end():end].splitlines():
                bullet = _BULLET.match(line)
                if bullet:
                    items.append(bullet.group(1).strip())
            return items[:12]
    return []
