"""Images attached to the next message: the controller's side (the session does the work).

Decoding is Qt's (``QImage``): a file or a pasted picture is checked, measured, scaled down
when very large (a 6000-pixel photo costs a patch-based model thousands of tokens and Ollama
megabytes of base64 for nothing a chat needs) and stored as PNG or JPEG, which every vision
model in Ollama reads.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QImage

from ollm_desktop.controller.ops_base import OpsBase
from ollm_desktop.engine import ImageRef
from ollm_desktop.session.images import MAX_IMAGE_BYTES, TOO_BIG

MAX_SIDE = 1536  # longer sides are scaled down to this before the image is stored
THUMB_CACHE = 64
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
JPEG_MAGIC = b"\xff\xd8\xff"

AttachResult = tuple[bool, str]  # attached?, what to tell the user ("" when nothing)


def _encode(image: QImage, fmt: str) -> bytes:
    buffer = QByteArray()
    device = QBuffer(buffer)
    device.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6 takes the format as str at run time (its stubs say bytes).
    image.save(device, fmt, 90 if fmt == "JPEG" else -1)  # type: ignore[call-overload]
    device.close()
    return bytes(buffer.data())


def _prepared(data: bytes, image: QImage) -> tuple[bytes, str, QImage]:
    """(bytes, mime, image) as stored: PNG and JPEG as they are unless too large; anything
    else (GIF, BMP, WebP...) as PNG."""
    if max(image.width(), image.height()) > MAX_SIDE:
        image = image.scaled(MAX_SIDE, MAX_SIDE, Qt.AspectRatioMode.KeepAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
        if image.hasAlphaChannel():
            return _encode(image, "PNG"), "image/png", image
        return _encode(image, "JPEG"), "image/jpeg", image
    if data.startswith(PNG_MAGIC):
        return data, "image/png", image
    if data.startswith(JPEG_MAGIC):
        return data, "image/jpeg", image
    return _encode(image, "PNG"), "image/png", image


class ImageOps(OpsBase):
    _thumbs: OrderedDict[tuple[str, int], QImage]

    # ------------------------------------------------------------ attaching
    def attach_image_file(self, path: str | Path) -> AttachResult:
        """Attach a picture file to the next message (what the button, a drop and a pasted
        file do)."""
        path = Path(path)
        try:
            size = path.stat().st_size
            if size > MAX_IMAGE_BYTES:
                return False, TOO_BIG.format(path.name, size / 1024 / 1024,
                                             MAX_IMAGE_BYTES // 1024 // 1024)
            data = path.read_bytes()
        except OSError as exc:
            return False, f"Could not read {path.name}: {exc.strerror or exc}"
        image = QImage.fromData(data)
        if image.isNull():
            return False, f"{path.name} is not an image this app can read."
        return self._attach(data, image, path.name)

    def attach_image(self, image: QImage, name: str = "pasted image.png") -> AttachResult:
        """Attach a picture that is not a file (pasted from the clipboard)."""
        if image.isNull():
            return False, "The clipboard's picture could not be read."
        return self._attach(_encode(image, "PNG"), image, name)

    def _attach(self, data: bytes, image: QImage, name: str) -> AttachResult:
        data, mime, image = _prepared(data, image)
        change = self.session.images.attach(data, mime, name, image.width(), image.height())
        if change.problems:
            return False, change.problems[0].text
        return True, " ".join(change.notices)

    def remove_pending_image(self, image_id: str) -> None:
        self.session.images.remove(image_id)

    def pending_images(self) -> list[ImageRef]:
        return list(self.session.images.pending)

    def restore_unsent_images(self) -> bool:
        """A send came back without a reply: its images wait for the next one again."""
        return self.session.images.restore_unsent()

    def images_warning(self) -> str | None:
        """Why the current model may not see images (None: it says it does, or unknown)."""
        return self.session.images.vision_warning()

    # ------------------------------------------------------------ thumbnails
    def image_thumbnail(self, image_id: str, height: int) -> QImage | None:
        """A stored image scaled to ``height`` pixels (cached): rows and the pending strip."""
        cache = getattr(self, "_thumbs", None)
        if cache is None:
            cache = self._thumbs = OrderedDict()
        key = (image_id, height)
        found = cache.get(key)
        if found is not None:
            cache.move_to_end(key)
            return found
        data = self.session.images.data(image_id)
        image = QImage.fromData(data) if data else QImage()
        if image.isNull():
            return None
        thumb = image.scaledToHeight(height, Qt.TransformationMode.SmoothTransformation)
        cache[key] = thumb
        while len(cache) > THUMB_CACHE:
            cache.popitem(last=False)
        return thumb
