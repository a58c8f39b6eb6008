"""Learning how far our tokenizer's counts are from the model's, from Ollama's own numbers.

We count with cl100k; a model's tokenizer may count 20% more or less. Each final chunk reports
``prompt_eval_count`` for exactly the messages we sent, so actual/estimate is a direct sample of
that error. Samples taken while Ollama silently truncated the prompt are useless (the count is
of what Ollama kept, not of what we sent), so they are detected and skipped.
"""

from __future__ import annotations

from pydantic import BaseModel, PrivateAttr

MIN_FACTOR = 0.5
MAX_FACTOR = 3.0
MIN_PROMPT_TOKENS = 64  # below this, chat-template overhead dominates the ratio
MIN_ALPHA = 0.2  # weight of a new sample once the factor has settled
NEAR_LIMIT = 0.9  # fraction of num_ctx that counts as "at the limit"
SHORTFALL = 0.8  # actual/estimate below this is "much smaller"
SHORTFALL_UNCALIBRATED = 0.65  # looser until a few samples back the factor
OVERFLOW_STEP = 1.5  # least growth of the factor after an overflowing (truncated) prompt


def _clamp(value: float) -> float:
    return max(MIN_FACTOR, min(MAX_FACTOR, value))


class TokenCalibration(BaseModel):
    """Smoothed actual/estimated token ratio for one model (persisted per model)."""

    factor: float = 1.0
    samples: int = 0
    _suspect: int | None = PrivateAttr(default=None)

    def observe(self, raw_estimate: int, actual: int, *, num_ctx: int | None = None) -> float:
        """Fold one sample in (EMA, quick at first, steadier later); return the new factor.

        ``raw_estimate`` is the unscaled cl100k count of the prompt we sent. A sample whose
        ``actual`` was just judged truncated by :meth:`truncation_suspected`, or that is at
        ``num_ctx`` while far below the estimate, is ignored.
        """
        suspect, self._suspect = self._suspect, None
        if raw_estimate < MIN_PROMPT_TOKENS or actual <= 0:
            return self.factor
        if (suspect is not None and suspect == actual) or (
                num_ctx and self.truncation_suspected(int(raw_estimate * self.factor), actual,
                                                      num_ctx)):
            self._suspect = None
            # A truncated count is only a lower bound of the true one; when even that is above
            # our expectation, the factor must grow at least that far, or every later prompt
            # would be cut the same way.
            bound = actual / raw_estimate
            if bound > self.factor:
                # The true count was larger still (what did not fit is not counted): step
                # past the bound so that a few turns, not dozens, restore a fitting prompt.
                self.factor = round(_clamp(max(bound, self.factor * OVERFLOW_STEP)), 4)
            return self.factor
        ratio = _clamp(actual / raw_estimate)
        alpha = max(MIN_ALPHA, 1.0 / (self.samples + 1))
        self.factor = round(_clamp(self.factor + alpha * (ratio - self.factor)), 4)
        self.samples += 1
        return self.factor

    def truncation_suspected(self, estimate: int, actual: int, num_ctx: int) -> bool:
        """Did Ollama probably drop old messages? (It says nothing; the count just shrinks.)

        True when the prompt we sent was at or over the window (by our calibrated ``estimate``
        or by Ollama's count) AND Ollama counted much less than we expected; or when Ollama's
        count fills the window although we planned less (the model's tokenizer counts more
        than our estimate, so the prompt overflowed and Ollama kept only what fit).
        """
        if estimate < MIN_PROMPT_TOKENS or actual <= 0 or num_ctx <= 0:
            return False
        near_limit = estimate >= NEAR_LIMIT * num_ctx or actual >= NEAR_LIMIT * num_ctx
        threshold = SHORTFALL if self.samples >= 3 else SHORTFALL_UNCALIBRATED
        shortfall = near_limit and actual < threshold * estimate
        # We plan prompts well below the window (usable_ratio); Ollama counting more than we
        # planned AND filling the window means the rest did not fit and was dropped.
        overflow = actual >= NEAR_LIMIT * num_ctx and actual > estimate
        suspected = shortfall or overflow
        self._suspect = actual if suspected else None
        return suspected
