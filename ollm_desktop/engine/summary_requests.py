"""Asking for a checkpoint in a request the server has mostly read already.

A summary request with a prompt of its own replaces the server's cached prompt, so the next
chat request is read in full, and the summary itself is read in full too. Instead the request
sends the chat's own leading entries, exactly as the last chat request did (its system message
and the turns being compacted), and asks for the checkpoint in a final user turn: its prompt
comes from the cache. The span's oldest turns that the chat request had already left out are
quoted after the instructions. Where that prompt and the summary's output cap would not fit in
num_ctx, or the span has a gap, the standalone prompt is used, split into chunks if needed.

Either way the answer goes through the gate (the echo check sees only the instructions, so a
faithful summary of the chat is not refused as an echo), one stricter retry, and, after two
failures, an extractive checkpoint built by code (``extractive``).
"""

from __future__ import annotations

from collections.abc import Callable

from ollm_desktop.engine import budget, extractive, prompts, tool_results
from ollm_desktop.engine.images import DESCRIPTION_TOKENS, IMAGES_KEY, text_with_images
from ollm_desktop.engine.models import CompactionReport, Message
from ollm_desktop.engine.stage import Stage
from ollm_desktop.engine.summarizer import Deadline, SummaryCaller, SummaryFailed, breaker_open
from ollm_desktop.engine.tokens import clip_middle, count_tokens

TAG_TOKENS = 6  # <role kept="verbatim"> ... </role> around each message in the prompt
# Our count of a prompt that nearly fills num_ctx may be short by the model's tokenizer: 1.2-1.3x
# cl100k before the calibration has learned it, a few percent after. The output cap is room on
# top, and a prompt the server still refuses falls back to the standalone request.
UNCALIBRATED_MARGIN = 1.3
CALIBRATED_MARGIN = 1.03
# The full summary rules' extra words over the short ones, as a share of the window, at most.
FULL_RULES_SHARE = 0.06
Prompt = list[dict[str, str]]


class SummaryWriter:
    def __init__(self, stage: Stage, caller: SummaryCaller, *, focus: str | None,
                 deadline: Deadline, report: CompactionReport) -> None:
        self.stage, self.data = stage, stage.data
        self.caller, self.focus, self.deadline, self.report = caller, focus, deadline, report

    # ------------------------------------------------------------ shared prefix
    def shared_prefix(self, span_ids: set[str]) -> Prompt | None:
        """The chat request's leading entries that hold exactly span messages, or None."""
        assembly = self.stage.assembly()
        entries, ids = assembly.messages, assembly.entry_ids
        if not entries:
            return None
        if any(IMAGES_KEY in entry for entry in entries):
            return None  # pictures are sent by the session at send time: summaries use text
        end = 1 if entries[0]["role"] == "system" else 0
        if end < len(entries) and not ids[end] and entries[end]["role"] == "user":
            end += 1  # the continue stub (the recent turns start with a reply): no message
        while end < len(entries) and ids[end] and set(ids[end]) <= span_ids:
            end += 1
        held = {i for entry in ids[:end] for i in entry}
        if not held or entries[end - 1]["role"] != "assistant":
            return None
        if any(e["role"] == "tool" and not e["content"].startswith(tool_results.PRUNED)
               for e in entries[:end]):
            return None  # a summary reads a result's outcome, never its output (standalone)
        return [dict(e) for e in entries[:end]]

    def chat_prompt(self, material: list[Message], span: list[Message], target: int,
                    level: int, rolling: bool) -> Callable[[str | None], Prompt] | None:
        """The request reusing the chat's prefix, as a prompt maker; None where it cannot."""
        data = self.data
        span_ids = {m.id for m in span}
        prefix = self.shared_prefix(span_ids)
        if prefix is None:
            return None
        ids = self.stage.assembly().entry_ids
        sent = {i for entry in ids for i in entry}
        held = {i for entry in ids[:len(prefix)] for i in entry}
        missing = [m for m in material if m.id in span_ids and m.id not in sent]
        first_held = next((n for n, m in enumerate(material) if m.id in held), len(material))
        if any(n > first_held for n, m in enumerate(material) if m in missing):
            return None  # a gap inside the span, not its oldest turns: its order would be lost
        folded = [m for m in material if m.id not in span_ids]
        users_kept = data.config.preserve_user_messages

        def maker(short: bool) -> Callable[[str | None], Prompt]:
            def make(stricter: str | None) -> Prompt:
                shown = data.goal if data.goal_shown is None else data.goal_shown
                request = prompts.chat_summary_request(  # names the goal the notes show
                    target=target, level=level, goal=shown, focus=self.focus,
                    folded=folded, users_kept=users_kept, fold_previous=rolling,
                    stricter=stricter, short=short, earlier=missing)
                return [*prefix, {"role": "user", "content": request}]
            return make

        config = data.config
        predict = budget.summary_predict(config, target)
        margin = UNCALIBRATED_MARGIN if config.estimate_scale == 1.0 else CALIBRATED_MARGIN
        def size(make: Callable[[str | None], Prompt]) -> int:
            return sum(data.message_tokens(m["content"]) for m in make(None)) + \
                config.request_overhead + 64  # room for the retry note

        full, short = maker(False), maker(True)
        full_size, short_size = size(full), size(short)
        # The rules follow the cached prefix, so the server reads them anew on every summary:
        # the full ones where they fit and their extra words are a small share of the window
        # (about 190 tokens: a tenth of a 2K window), else the short ones.
        if (full_size - short_size <= config.context_size * FULL_RULES_SHARE
                and full_size * margin + predict <= config.context_size):
            return full
        if short_size * margin + predict <= config.context_size:
            return short
        return None

    # ------------------------------------------------------------ standalone
    def chunks(self, material: list[Message], verbatim: set[str], target: int,
               level: int, previous: str | None) -> list[list[Message]]:
        """Split the material so that no standalone summary request exceeds num_ctx."""
        config, data = self.data.config, self.data
        predict = budget.summary_predict(config, target)
        base_prompt = prompts.summary_prompt([], verbatim_ids=set(), target=target, level=level,
                                             goal=data.goal, focus=self.focus,
                                             previous=previous or None)
        base = sum(data.message_tokens(m["content"]) for m in base_prompt)
        # a chunk after the first carries the summary so far
        later = base + (0 if previous else data.count("x " * target) + 24)
        limit = max(64, int((config.context_size - predict - config.request_overhead
                             - later) * 0.95))
        per_message = max(48, limit // 2)
        clipped: list[Message] = []
        for message in material:
            if message.tokens + TAG_TOKENS > per_message or message.images:  # images: text
                text = clip_middle(message.content, int(per_message / config.estimate_scale))
                tokens = data.message_tokens(text) + DESCRIPTION_TOKENS * len(message.images)
                message = message.model_copy(update={"content": text, "tokens": tokens})
            clipped.append(message)
        result: list[list[Message]] = [[]]
        used = 0
        for message in clipped:
            cost = message.tokens + TAG_TOKENS
            if result[-1] and used + cost > limit:
                result.append([])
                used = 0
            result[-1].append(message)
            used += cost
        return [chunk for chunk in result if any(m.id not in verbatim for m in chunk)] or [[]]

    # ------------------------------------------------------------ the text
    async def write(self, material: list[Message], span: list[Message], verbatim: set[str],
                    target: int, level: int, progress: Callable[[float], None],
                    previous: str | None = None) -> tuple[str, bool]:
        """(text, model ok); falls back to an extractive checkpoint chunk by chunk.

        ``previous``: the rolling checkpoint folded into this one (tiers 1-2)."""
        data, report = self.data, self.report
        paused = breaker_open(data.breaker, len(data.messages))
        summarised = [m for m in material if m.id not in verbatim]
        shared = None if paused else self.chat_prompt(material, span, target, level,
                                                      previous is not None)
        if shared is not None and not self.deadline.expired:
            report.chunks = 1
            try:
                written = await self._ask(shared, summarised, material, target, level,
                                          previous)
                report.shared_prefix = True
                progress(1.0)
                return written, True
            except SummaryFailed as exc:
                report.error = str(exc)
                if not exc.too_long:  # the model failed twice: as it would have standalone
                    report.extractive = True
                    return self._extractive(summarised, target, previous), False
                # The server counted it over its context: the standalone prompt, in chunks.
        pieces = self.chunks(material, verbatim, target, level, previous)
        report.chunks = len(pieces)
        model_ok = not paused
        text: str | None = previous
        for number, chunk in enumerate(pieces):
            chunk_summarised = [m for m in chunk if m.id not in verbatim]
            carried = text

            def make(stricter: str | None, chunk: list[Message] = chunk,
                     carried: str | None = carried) -> Prompt:
                return prompts.summary_prompt(chunk, verbatim_ids=verbatim, target=target,
                                              level=level, goal=data.goal, focus=self.focus,
                                              previous=carried, stricter=stricter)

            if not paused and not self.deadline.expired:
                try:
                    text = await self._ask(make, chunk_summarised, chunk, target, level,
                                           carried)
                    progress((number + 1) / len(pieces))
                    continue
                except SummaryFailed as exc:
                    report.error = str(exc)
            model_ok = False
            report.extractive = True
            text = self._extractive(chunk_summarised, target, carried)
        if self.deadline.expired and not model_ok:
            report.timed_out = True
        return text or "", model_ok

    async def _ask(self, make: Callable[[str | None], Prompt], summarised: list[Message],
                   shown: list[Message], target: int, level: int, carried: str | None) -> str:
        data = self.data
        input_tokens = sum(m.tokens for m in summarised) + (data.count(carried)
                                                            if carried else 0)
        material = "\n".join(m.content for m in shown) + "\n" + (carried or "")
        return await self.caller.summarize(make, material=material, input_tokens=input_tokens,
                                           target=target, level=level, deadline=self.deadline,
                                           report=self.report)

    def _extractive(self, summarised: list[Message], target: int, carried: str | None) -> str:
        return extractive.extractive_checkpoint(
            [(m.role, text_with_images(m)) for m in summarised], target_tokens=target,
            previous=carried, count=count_tokens)
