"""Learning what Ollama counts, from Ollama's own numbers (there is no tokenize endpoint).

We count with cl100k; a model's tokenizer may count 20% more or less, and its chat template
adds tokens around every message and every request. Each final chunk reports
``prompt_eval_count`` for exactly the messages we sent, so every turn is one sample of

    actual ~= factor * raw + per_message * messages + per_request

(``raw``: cl100k tokens of the message contents). With a few varied samples a small robust
least-squares fit recovers all three; until then only ``factor`` is learned, with the overhead
the engine currently applies held fixed. Samples taken while Ollama silently truncated the
prompt (older servers ignore ``"truncate": false``) are useless, because the count is of what
Ollama kept, so they are detected and skipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Protocol

from pydantic import BaseModel, PrivateAttr

MIN_FACTOR = 0.5
MAX_FACTOR = 3.0
MAX_PER_MESSAGE = 32
MAX_PER_REQUEST = 128
# The engine's defaults (EngineConfig.message_overhead / request_overhead): what is applied
# until a fit says otherwise. They err high on purpose.
DEFAULT_PER_MESSAGE = 8
DEFAULT_PER_REQUEST = 16
MIN_PROMPT_TOKENS = 64  # below this, chat-template overhead dominates the ratio
MIN_ALPHA = 0.2  # weight of a new sample once the factor has settled
NEAR_LIMIT = 0.9  # fraction of num_ctx that counts as "at the limit"
SHORTFALL = 0.8  # actual/estimate below this is "much smaller"
SHORTFALL_UNCALIBRATED = 0.65  # looser until a few samples back the factor
OVERFLOW_STEP = 1.5  # least growth of the factor after an overflowing (truncated) prompt
OVERFLOW_MARGIN = 1.02  # after a refused prompt, estimate it at least this much above its count
WINDOW = 20  # recent samples the fit uses
MIN_FIT_SAMPLES = 8
MAX_CORRELATION = 0.999  # raw and message count this aligned cannot be told apart
REGIME_CHANGE = 1.10  # the newest count this far above the fit: the model changed, start over
HUBER = 1.5  # residuals beyond this many robust deviations are down-weighted


def _clamp(value: float, low: float = MIN_FACTOR, high: float = MAX_FACTOR) -> float:
    return max(low, min(high, value))


@dataclass(frozen=True, slots=True)
class Sample:
    """One observed request: cl100k tokens of its contents, its message count, Ollama's count."""

    raw: int
    messages: int
    actual: int


@dataclass(frozen=True, slots=True)
class Fit:
    factor: float
    per_message: int
    per_request: int


def _solve(samples: list[Sample], weights: list[float]) -> tuple[float, float, float] | None:
    """Weighted least squares on centred data; None when raw and messages are collinear."""
    total = sum(weights)
    if total <= 0:
        return None
    mx = sum(w * s.raw for s, w in zip(samples, weights, strict=True)) / total
    mn = sum(w * s.messages for s, w in zip(samples, weights, strict=True)) / total
    ma = sum(w * s.actual for s, w in zip(samples, weights, strict=True)) / total
    sxx = sxn = snn = sxa = sna = 0.0
    for s, w in zip(samples, weights, strict=True):
        dx, dn, da = s.raw - mx, s.messages - mn, s.actual - ma
        sxx += w * dx * dx
        sxn += w * dx * dn
        snn += w * dn * dn
        sxa += w * dx * da
        sna += w * dn * da
    if sxx <= 0 or snn <= 0 or sxn * sxn >= MAX_CORRELATION ** 2 * sxx * snn:
        return None
    det = sxx * snn - sxn * sxn
    factor = (snn * sxa - sxn * sna) / det
    per_message = (sxx * sna - sxn * sxa) / det
    per_message = _clamp(per_message, 0, MAX_PER_MESSAGE)
    if not MIN_FACTOR <= factor <= MAX_FACTOR or per_message in (0, MAX_PER_MESSAGE):
        # A bound was hit: hold per_message there and fit the factor alone.
        factor = _clamp(sum(w * (s.raw - mx) * (s.actual - per_message * s.messages)
                            for s, w in zip(samples, weights, strict=True)) / sxx)
    per_request = ma - factor * mx - per_message * mn
    return factor, per_message, per_request


def fit_counts(samples: list[Sample]) -> Fit | None:
    """Robust (Huber-weighted) fit of factor, per-message and per-request overhead.

    None while the samples cannot separate the three: too few, all with the same number of
    messages, or raw size and message count growing in lockstep.
    """
    if len(samples) < MIN_FIT_SAMPLES or max(s.messages for s in samples) - min(
            s.messages for s in samples) < 2:
        return None
    weights = [1.0] * len(samples)
    solved = None
    for _ in range(4):
        solved = _solve(samples, weights)
        if solved is None:
            return None
        factor, per_message, per_request = solved
        residuals = [s.actual - (factor * s.raw + per_message * s.messages + per_request)
                     for s in samples]
        spread = max(1.0, 1.4826 * median(abs(r) for r in residuals))
        weights = [min(1.0, HUBER * spread / abs(r)) if r else 1.0 for r in residuals]
    assert solved is not None
    factor, per_message, per_request = solved
    return Fit(round(_clamp(factor), 4), round(per_message),
               math.ceil(_clamp(per_request, 0, MAX_PER_REQUEST)))


class TokenCalibration(BaseModel):
    """What one model counts compared with us (persisted per model).

    ``factor`` scales cl100k counts of content; ``per_message`` and ``per_request`` are the
    chat template's tokens. The recent samples behind a fit live only in memory.
    """

    factor: float = 1.0
    samples: int = 0
    per_message: int = DEFAULT_PER_MESSAGE
    per_request: int = DEFAULT_PER_REQUEST
    _suspect: int | None = PrivateAttr(default=None)
    _window: list[Sample] = PrivateAttr(default_factory=list)

    def estimate(self, raw: int, messages: int) -> int:
        """Our count of a request, in the model's tokens, with what has been learned."""
        return math.ceil(self.factor * raw) + self.per_message * messages + self.per_request

    def observe(self, raw_estimate: int, actual: int, *, num_ctx: int | None = None,
                messages: int = 0) -> float:
        """Fold one sample in; return the new factor.

        ``raw_estimate`` is the unscaled cl100k count of the contents we sent, ``messages``
        how many messages carried them (0: unknown, the whole count is taken as content). A
        sample whose ``actual`` was just judged truncated by :meth:`truncation_suspected`, or
        that is at ``num_ctx`` while far below the estimate, is ignored.
        """
        suspect, self._suspect = self._suspect, None
        if raw_estimate < MIN_PROMPT_TOKENS or actual <= 0:
            return self.factor
        overhead = self.per_message * messages + self.per_request if messages else 0
        if (suspect is not None and suspect == actual) or (
                num_ctx and self.truncation_suspected(
                    math.ceil(raw_estimate * self.factor) + overhead, actual, num_ctx)):
            self._suspect = None
            self._overflowed(raw_estimate, actual - overhead)
            return self.factor
        self.samples += 1
        if messages:
            self._window = [*self._window, Sample(raw_estimate, messages, actual)][-WINDOW:]
            if self._refit():
                return self.factor
            if overhead >= raw_estimate:
                return self.factor  # the template dominates: the ratio says little
        # Until a fit separates content from template, the overhead held fixed may be larger
        # than the model's: the whole shortfall would then be blamed on the content, and a
        # longer prompt under-counted. ``actual / raw`` bounds the true factor from above
        # (the overhead is never negative), so the factor only drops below 1 as far as that
        # bound proves: erring high, as the fixed overhead does.
        ratio = _clamp(max((actual - overhead) / raw_estimate, min(1.0, actual / raw_estimate)))
        alpha = max(MIN_ALPHA, 1.0 / self.samples)
        self.factor = round(_clamp(self.factor + alpha * (ratio - self.factor)), 4)
        return self.factor

    def _refit(self) -> bool:
        """Fit the window; a newest count far above the fit means the model changed."""
        fit = fit_counts(self._window)
        if fit is None:
            return False
        newest = self._window[-1]
        predicted = math.ceil(fit.factor * newest.raw) + fit.per_message * newest.messages \
            + fit.per_request
        if newest.actual > REGIME_CHANGE * predicted:
            # The older samples describe another tokenizer: start over from this one.
            self._window, self.samples = [newest], 1
            return False
        self.factor, self.per_message, self.per_request = fit.factor, fit.per_message, \
            fit.per_request
        return True

    def _overflowed(self, raw: int, content_bound: int) -> None:
        """A truncated count is only a lower bound of the true one; when even that is above
        our expectation, the factor must grow at least that far, or every later prompt would
        be cut the same way. The true count was larger still (what did not fit is not
        counted): step past the bound so that a few turns, not dozens, restore a fit."""
        bound = content_bound / raw
        if bound > self.factor:
            self.factor = round(_clamp(max(bound, self.factor * OVERFLOW_STEP)), 4)

    def observe_overflow(self, raw: int, messages: int, *, prompt_tokens: int | None,
                         num_ctx: int) -> float:
        """Ollama refused a prompt as longer than ``num_ctx``: we counted too little.

        With the model's count of the refused prompt (a complete, untruncated sample) the
        factor grows so that the same prompt is estimated above that count; without it, the
        prompt was at least ``num_ctx + 1`` tokens and the factor steps up as after a
        truncation. Returns the new factor.
        """
        if raw <= 0:
            return self.factor
        overhead = self.per_message * messages + self.per_request
        if prompt_tokens and prompt_tokens > 0:
            if messages:
                self._window = [*self._window, Sample(raw, messages, prompt_tokens)][-WINDOW:]
                self._refit()
            needed = (OVERFLOW_MARGIN * prompt_tokens + 1 - overhead) / raw
            self.factor = round(_clamp(max(self.factor, needed)), 4)
        else:
            self._overflowed(raw, max(1, num_ctx + 1 - overhead))
            needed = (num_ctx + 1 - overhead) / raw
            self.factor = round(_clamp(max(self.factor, needed)), 4)
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


class CalibrationRows(Protocol):
    """The store's calibration table: one (factor, samples) row per key."""

    def get_calibration(self, model: str) -> tuple[float, int] | None: ...

    def set_calibration(self, model: str, factor: float, samples: int) -> None: ...


# The template overhead shares the table through a second row per model (per_message in the
# factor column, per_request in the samples column): no schema change, and older app versions
# just see a row for a model they never use.
OVERHEAD_SUFFIX = "\x1ftemplate-overhead"


def load_calibration(rows: CalibrationRows, model: str) -> TokenCalibration:
    """The stored calibration of ``model`` (defaults when none is stored)."""
    calibration = TokenCalibration()
    stored = rows.get_calibration(model)
    if stored:
        calibration.factor = round(_clamp(float(stored[0])), 4)
        calibration.samples = max(0, int(stored[1]))
    overhead = rows.get_calibration(model + OVERHEAD_SUFFIX)
    if overhead:
        calibration.per_message = int(_clamp(round(overhead[0]), 0, MAX_PER_MESSAGE))
        calibration.per_request = int(_clamp(overhead[1], 0, MAX_PER_REQUEST))
    return calibration


def save_calibration(rows: CalibrationRows, model: str, calibration: TokenCalibration) -> None:
    rows.set_calibration(model, calibration.factor, calibration.samples)
    rows.set_calibration(model + OVERHEAD_SUFFIX, float(calibration.per_message),
                         calibration.per_request)
