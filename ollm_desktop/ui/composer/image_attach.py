"""Images for vision models: the Attach button beside Send, the strip of pending images
above the input (thumbnails with a remove button, and a line for warnings), image files
dropped on the input or the conversation, and pictures pasted into the input.

Everything goes through the controller (``attach_image_file``, ``attach_image``); the images
wait in the session until the next message takes them. Messages are in-window: a refused
file or a model without vision is said in the strip, never in a dialog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QAction, QDropEvent, QImage, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.ui.composer.message_input import IMAGE_SUFFIXES, image_files
from ollm_desktop.ui.conversation import row_images
from ollm_desktop.ui.window_parts import insert_before

if TYPE_CHECKING:
    from ollm_desktop.controller import ChatController
    from ollm_desktop.engine.models import ImageRef
    from ollm_desktop.ui.composer.host import ImageAttachHost

THUMB_H = 56
FILTER = "Images ({})".format(" ".join(f"*{suffix}" for suffix in IMAGE_SUFFIXES))
SHORTCUT = "Ctrl+Shift+I"


class PendingImages(QWidget):
    """The images that go with the next message, each removable, and a line of notice."""

    def __init__(self, controller: ChatController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pendingImages")
        self.setAccessibleName(self.tr("Attached images"))
        self._controller = controller
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 2)
        layout.setSpacing(2)
        self._tiles = QHBoxLayout()
        self._tiles.setSpacing(6)
        self._tiles.addStretch(1)
        layout.addLayout(self._tiles)
        self.notice = QLabel()
        self.notice.setObjectName("imageNotice")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: palette(highlight);")
        layout.addWidget(self.notice)
        self._message = ""
        self.refresh()

    def say(self, text: str) -> None:
        """Show ``text`` under the thumbnails until the next attach or send ("" clears)."""
        self._message = text
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the tiles from the controller's pending images."""
        while self._tiles.count() > 1:
            item = self._tiles.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        pending = self._controller.pending_images()
        for position, image in enumerate(pending):
            tile = self._tile(image)
            self._tiles.insertWidget(position, tile)
            tile.show()
        self.notice.setText(self._message)
        self.notice.setVisible(bool(self._message))
        self.setVisible(bool(pending) or bool(self._message))

    def _tile(self, image: ImageRef) -> QWidget:
        """A thumbnail with its remove button, and its name and cost in the context."""
        image_id, name = image.id, image.name
        tile = QWidget()
        tile.setObjectName("pendingImage")
        column = QVBoxLayout(tile)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(1)
        row = QHBoxLayout()
        row.setSpacing(2)
        column.addLayout(row)
        picture = QLabel()
        thumb = self._controller.image_thumbnail(image_id, THUMB_H)
        if thumb is not None:
            picture.setPixmap(QPixmap.fromImage(thumb))
            picture.setFixedSize(thumb.size() + QSize(2, 2))  # the frame hugs the picture
        else:
            picture.setText(name)
        picture.setToolTip(name)
        picture.setAccessibleName(name or self.tr("Image"))
        picture.setStyleSheet("border: 1px solid palette(mid); border-radius: 4px;")
        remove = QToolButton()
        remove.setObjectName("removeImageButton")
        remove.setText("×")
        remove.setAutoRaise(True)
        remove.setToolTip(self.tr("Remove {0}").format(name))
        remove.setAccessibleName(self.tr("Remove {0}").format(name))
        remove.clicked.connect(lambda: self._remove(image_id))
        row.addWidget(picture)
        row.addWidget(remove, 0, Qt.AlignmentFlag.AlignTop)
        row.addStretch(1)
        caption = QLabel(self.tr("{0} · about {1:,} tokens").format(
            _short(name or self.tr("image")), image.tokens))
        caption.setObjectName("pendingImageCaption")
        small = caption.font()
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.85))
        caption.setFont(small)
        caption.setStyleSheet("color: palette(placeholder-text);")
        column.addWidget(caption)
        return tile

    def _remove(self, image_id: str) -> None:
        self._controller.remove_pending_image(image_id)
        self._message = ""
        self.refresh()


class ImageDrops(QObject):
    """Takes image files dropped on the widgets it watches (the conversation)."""

    def __init__(self, attach: ImageAttach) -> None:
        super().__init__()
        self._attach = attach

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if not isinstance(event, QDropEvent) or kind not in (  # enter and move are drop events
                QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        files = image_files(event.mimeData())
        if not files:
            return False
        event.acceptProposedAction()
        if kind == QEvent.Type.Drop:
            self._attach.attach_files(files)
        return True


class ImageAttach(QObject):
    """The feature's wiring: button, strip, drops, pastes and the controller's signals."""

    def __init__(self, content: ImageAttachHost) -> None:
        super().__init__(content.window)
        self.setObjectName("imageAttach")
        self.content = content
        controller = content.controller
        self.controller = controller
        self.button = QPushButton(self.tr("Attach image…"))
        self.button.setObjectName("attachImageButton")
        self.button.setAccessibleName(self.tr("Attach image"))
        self.button.setToolTip(self.tr("Attach images for a vision model (or drop them on the "
                                       "message box, or paste one)"))
        self.button.clicked.connect(self.choose_files)
        self.action = QAction(self.tr("Attach &image…"), content.window)
        self.action.setObjectName("actionAttachImage")
        self.action.setShortcut(QKeySequence(SHORTCUT))
        self.action.setStatusTip(self.button.toolTip())
        self.action.triggered.connect(self.choose_files)
        content.window.addAction(self.action)
        menu = content.menus.get("conversation")
        if menu is not None and menu.actions():  # first in the Conversation menu
            first = menu.actions()[0]
            menu.insertAction(first, self.action)
            menu.insertSeparator(first)
        self.button.setToolTip(f"{self.button.toolTip()} ({SHORTCUT})")
        self.strip = PendingImages(controller)
        insert_before(content.stop_button, self.button)  # Attach, Stop, Send
        insert_before(content.message_input, self.strip)
        box = content.message_input
        box.imageFilesDropped.connect(self.attach_files)
        box.imagePasted.connect(self.attach_pasted)
        row_images.set_source(content.conversation_view.message_delegate,
                              controller.image_thumbnail)
        self.drops = ImageDrops(self)
        content.conversation_view.viewport().installEventFilter(self.drops)
        content.conversation_view.viewport().setAcceptDrops(True)
        controller.messageAdded.connect(lambda _message: self._sent())
        controller.sendFailed.connect(lambda _text, _reason: self._send_failed())
        controller.chatOpened.connect(lambda _chat: self.strip.refresh())
        controller.pendingImagesChanged.connect(self.strip.refresh)
        content.send_button.clicked.connect(self._after_send)
        box.submitted.connect(self._after_send)

    # ------------------------------------------------------------ attaching
    def choose_files(self) -> None:
        """The button: the user picks files in a file dialog (user-initiated)."""
        paths, _ = QFileDialog.getOpenFileNames(self.content.window,
                                                self.tr("Attach images"), "", FILTER)
        self.attach_files(paths)

    def attach_files(self, paths: list[str]) -> None:
        said: list[str] = []
        for path in paths:
            _attached, text = self.controller.attach_image_file(path)
            if text and text not in said:
                said.append(text)
        self.strip.say(" ".join(said))
        self.content.message_input.setFocus()

    def attach_pasted(self, image: QImage) -> None:
        _attached, text = self.controller.attach_image(image)
        self.strip.say(text)

    # ------------------------------------------------------------ sending
    def _sent(self) -> None:
        if self.strip.isVisible() and not self.controller.pending_images():
            self.strip.say("")

    def _send_failed(self) -> None:
        self.controller.restore_unsent_images()
        self.strip.refresh()

    def _after_send(self) -> None:
        """Images sent without words go as they are (the strip empties with the send)."""
        self.strip.refresh()


def _short(name: str, limit: int = 24) -> str:
    return name if len(name) <= limit else name[:limit - 1] + "…"


def install(content: ImageAttachHost) -> None:
    """Adds the Attach button, the pending strip and drops/pastes to the built window."""
    ImageAttach(content)  # kept by its parent, the window
