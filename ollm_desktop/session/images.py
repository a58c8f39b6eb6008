"""Images for vision models: attached to the next message, stored once, counted, sent as
Ollama's ``images``, and described in one sentence before their turn is compacted.

The engine holds references only (``ImageRef``: id, size, token estimate, description); the
bytes live in the store and are put into a request just before it is sent
(:func:`with_image_data`). A turn's picture is worth a fixed number of tokens per model
family (what its vision encoder makes of one image), estimated on the high side: a wrong
guess must leave room, never overflow the context.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ollm_desktop.backend import BackendError
from ollm_desktop.engine import ImageRef
from ollm_desktop.engine.images import IMAGES_KEY, fallback_description
from ollm_desktop.session.chat_settings import keep_alive_for
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import NOTHING, Change
from ollm_desktop.storage import ChatStore, StorageError

log = logging.getLogger(__name__)

MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_PENDING = 8
# Tokens one image takes, by model family (what its projector makes of one picture), plus a
# few for the markers around it. Unknown families get a figure above the common ones.
FAMILY_TOKENS = (("gemma3", 256), ("moondream", 729), ("llava", 576), ("bakllava", 576),
                 ("clip", 576), ("minicpm", 640))
PATCH_FAMILIES = ("qwen2.5vl", "qwen2.5-vl", "qwen25vl", "qwen2vl", "qwen2-vl", "qwen3vl",
                  "qwen3-vl", "mistral3", "mistral-small3", "pixtral")
PATCH = 28  # pixels per token side for the patch-merging encoders (Qwen-VL, Pixtral)
MARKERS = 8
UNKNOWN_TOKENS = 768
DESCRIBE_PROMPT = ("Describe this image in one short sentence: what it shows, and any text or "
                   "numbers in it that matter.")
DESCRIBE_PREDICT = 80
DESCRIPTION_CHARS = 240

TOO_BIG = "{0} is {1:.1f} MB; images up to {2} MB can be attached."
EMPTY = "{0} is empty or not an image."
TOO_MANY = "At most {0} images can go with one message."
NO_ROOM = ("{0} would take about {1:,} tokens, but the context leaves room for {2:,}: choose a "
           "larger context size (chat settings) or a smaller image.")
NO_VISION = ("{0} does not list vision among its capabilities: it may not see images (they "
             "are sent anyway).")
ALREADY = "{0} is already attached."

_SENTENCE = re.compile(r"(.+?[.!?])(\s|$)", re.DOTALL)


def estimate_image_tokens(model: str | None, family: str | None, width: int,
                          height: int) -> int:
    """What one image costs a model's context, erring high (never an under-count)."""
    name = f"{model or ''} {family or ''}".lower()
    if any(key in name for key in PATCH_FAMILIES):
        patches = math.ceil(max(width, 1) / PATCH) * math.ceil(max(height, 1) / PATCH)
        return max(64, patches) + MARKERS
    for key, tokens in FAMILY_TOKENS:
        if key in name:
            return tokens + MARKERS
    return UNKNOWN_TOKENS


def first_sentence(text: str) -> str:
    """The first sentence of a model's answer, on one line and capped."""
    text = " ".join(text.split())
    match = _SENTENCE.match(text)
    sentence = match.group(1) if match else text
    if len(sentence) > DESCRIPTION_CHARS:
        sentence = sentence[:DESCRIPTION_CHARS - 1].rstrip() + "…"
    return sentence


def vision(core: SessionCore) -> bool | None:
    """Whether the model says it sees images (None: not known yet)."""
    details = core.model_details
    if details is None or not details.capabilities:
        return None
    return "vision" in details.capabilities


def image_data(core: SessionCore, image_id: str) -> bytes | None:
    try:
        return core.store.image_data(image_id)
    except StorageError:
        return None


def with_image_data(store: ChatStore, messages: Sequence[Mapping[str, str]],
                    ) -> Sequence[Mapping[str, Any]]:
    """The request as sent: each message's image ids replaced by the images' bytes (the
    client sends them base64). An image this database lacks (a chat imported from another
    machine) is left out of the request; its text still goes."""
    if not any(IMAGES_KEY in m for m in messages):
        return messages
    sent: list[Mapping[str, Any]] = []
    for message in messages:
        ids = message.get(IMAGES_KEY)
        if ids is None:
            sent.append(message)
            continue
        found = [data for key in ids.split() if (data := store.image_data(key)) is not None]
        entry: dict[str, Any] = {k: v for k, v in message.items() if k != IMAGES_KEY}
        if found:
            entry[IMAGES_KEY] = found
        if len(found) < len(ids.split()):
            log.warning("%d attached images are missing from the database",
                        len(ids.split()) - len(found))
        sent.append(entry)
    return sent


class ImageAttachments:
    """The images waiting for the next message, and the descriptions of sent ones."""

    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self.pending: list[ImageRef] = []
        # A draft's images set aside while a message is edited: pending again once the
        # edited message has taken its own.
        self.set_aside: list[ImageRef] = []
        # The last turn's images and its chat, until a failed send asks for them back.
        self._taken: tuple[str | None, list[ImageRef]] = (None, [])

    # ------------------------------------------------------------ capability
    def vision(self) -> bool | None:
        return vision(self._core)

    def estimate(self, width: int, height: int) -> int:
        core = self._core
        details = core.model_details
        family = f"{details.family or ''} {details.architecture or ''}" if details else None
        return estimate_image_tokens(core.model, family, width, height)

    def pending_tokens(self) -> int:
        """What the images waiting for the next message will cost (the send's room check)."""
        return sum(self.estimate(i.width, i.height) for i in self.pending)

    def recount(self) -> bool:
        """The chat's images counted for the model in use now (it may have changed since they
        were sent: gemma3 counts 264 a picture, Qwen-VL thousands). True when a count moved."""
        engine = self._core.engine
        if engine is None or not any(m.images for m in engine.display_messages()):
            return False
        state = engine.state()
        changed = False
        for message in state.messages:
            if not message.images:
                continue
            fresh = [i.model_copy(update={"tokens": self.estimate(i.width, i.height)})
                     for i in message.images]
            delta = sum(i.tokens for i in fresh) - sum(i.tokens for i in message.images)
            if delta:
                message.images, message.tokens, changed = fresh, message.tokens + delta, True
        if changed:
            engine.load_state(state)
        return changed

    def vision_warning(self) -> str | None:
        if self.vision() is False:
            return NO_VISION.format(self._core.model or "This model")
        return None

    # ------------------------------------------------------------ attaching
    def attach(self, data: bytes, mime: str, name: str, width: int, height: int) -> Change:
        """Keep an image for the next message (stored at once, once per content)."""
        label = name or "The image"
        if len(data) > MAX_IMAGE_BYTES:
            return Change.problem("input", TOO_BIG.format(
                label, len(data) / 1024 / 1024, MAX_IMAGE_BYTES // 1024 // 1024))
        if not data or width <= 0 or height <= 0:
            return Change.problem("input", EMPTY.format(label))
        if len(self.pending) >= MAX_PENDING:
            return Change.problem("input", TOO_MANY.format(MAX_PENDING))
        tokens = self.estimate(width, height)
        room = self._room()
        if room is not None and tokens + sum(i.tokens for i in self.pending) > room:
            return Change.problem("input", NO_ROOM.format(label, tokens, room))
        try:
            key = self._core.store.put_image(data, mime)
        except StorageError as exc:
            return self._core.storage_failed(exc)
        if any(image.id == key for image in self.pending):
            return Change.notice(ALREADY.format(label))
        self.pending.append(ImageRef(id=key, mime=mime, name=name, width=width,
                                     height=height, tokens=tokens))
        warning = self.vision_warning()
        return Change.notice(warning) if warning else NOTHING

    def _room(self) -> int | None:
        """Tokens a new message may take in the open chat (as ``Turns.check`` reckons)."""
        engine = self._core.engine
        if engine is None:
            return None
        usage = engine.usage()
        return int((usage.usable - usage.system - usage.goal - usage.pinned) * 0.9)

    def remove(self, image_id: str) -> Change:
        self.pending = [image for image in self.pending if image.id != image_id]
        return NOTHING

    def take(self) -> list[ImageRef]:
        """The pending images for the message being sent (counted for the model it goes to);
        ``restore_unsent`` gives them back if that message does not stay in the chat."""
        taken = [image.model_copy(update={"tokens": self.estimate(image.width, image.height)})
                 for image in self.pending]
        chat = self._core.chat
        self.pending, self._taken = self.set_aside, (chat.id if chat else None, taken)
        self.set_aside = []
        return list(taken)

    def restore_unsent(self) -> bool:
        """A send that failed took its message back: its images wait again (True if so).
        Nothing comes back when that message is still in its chat, or another chat is open."""
        (chat_id, taken), self._taken = self._taken, (None, [])
        engine, chat = self._core.engine, self._core.chat
        if not taken or chat is None or chat.id != chat_id or engine is None or any(
                m.images == taken for m in engine.display_messages()):
            return False
        known = {image.id for image in self.pending}
        self.pending = [image for image in taken if image.id not in known] + self.pending
        return True

    def data(self, image_id: str) -> bytes | None:
        return image_data(self._core, image_id)


# ---------------------------------------------------------------- compaction
async def describe_before_compaction(core: SessionCore) -> int:
    """Give every image of the turns a compaction may summarise (all but the newest
    exchange) a one-sentence description from the chat's model; a plain one ("an image
    (plot.png, 640×480)") when the model cannot. Returns how many images were described.

    The description is what a compacted turn keeps of its picture. It is set on the
    engine's messages and stored with them; until the compaction those turns are still sent
    whole (with their images), so nothing the engine has assembled changes.
    """
    engine, chat = core.engine, core.chat
    if engine is None or chat is None:
        return 0
    messages = engine.display_messages()
    last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=0)
    waiting = [m for m in messages[:last_user]
               if any(image.description is None for image in m.images)]
    if not waiting:
        return 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + engine.config.summary_timeout_s
    found: dict[str, str] = {}
    for message in waiting:
        for image in message.images:
            if image.description is None and image.id not in found:
                found[image.id] = await _describe(core, image, deadline - loop.time())
    if engine is not core.engine:  # the chat changed meanwhile
        return 0
    for message in waiting:
        message.images = [image if image.description is not None else
                          image.model_copy(update={"description": found[image.id]})
                          for image in message.images]
        try:
            core.store.update_message(chat.id, message)
        except StorageError as exc:
            core.publish(core.storage_failed(exc))
    return len(found)


async def _describe(core: SessionCore, image: ImageRef, seconds: float) -> str:
    fallback = fallback_description(image)
    data = image_data(core, image.id)
    if data is None or not core.model or vision(core) is False or seconds <= 1:
        return fallback
    request = [{"role": "user", "content": DESCRIBE_PROMPT, IMAGES_KEY: [data]}]
    num_ctx = core.engine.config.context_size if core.engine else 4096
    try:
        async with asyncio.timeout(seconds):
            done = await core.backend.chat(
                core.model, request, num_ctx=num_ctx,
                options={"num_predict": DESCRIBE_PREDICT, "temperature": 0},
                keep_alive=keep_alive_for(core), think=False if core.thinks() else None)
    except (BackendError, TimeoutError) as exc:
        log.info("describing an image failed (%s); a plain description is kept", exc)
        return fallback
    return first_sentence(done.content) or fallback
