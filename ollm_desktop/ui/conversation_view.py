"""The conversation list: pins, copy, compaction markers, and stable scrolling.

Two costs shape this view. A full QListView relayout asks every row's size (tens of ms at
thousands of rows), so a single-row ``dataChanged`` whose height did not change only
repaints that row. And rows start with estimated heights, so every relayout keeps an anchor
(the bottom, or the top visible row) in place while estimates turn exact.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QContextMenuEvent,
    QGuiApplication,
    QHelpEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import QAbstractItemView, QListView, QMenu, QStyle, QToolTip, QWidget

from ollm_desktop.ui.conversation_model import ConversationModel
from ollm_desktop.ui.message_delegate import MessageDelegate
from ollm_desktop.ui.roles import (
    KIND_MARKER,
    KIND_MESSAGE,
    GroupIdRole,
    KindRole,
    MessageIdRole,
    MessageRole,
    PinnedRole,
)

BOTTOM_SLACK = 4  # px from the end that still count as "at the bottom"
PREFETCH_ROWS = 200  # most rows measured exactly around the anchor per relayout


class ConversationView(QListView):
    pinToggled = Signal(str)  # message id
    groupActivated = Signal(str)  # compressed group id

    def __init__(self, parent: QWidget | None = None) -> None:
        self._model: ConversationModel | None = None
        self._read_only = False
        self._stick = True
        self._adjusting = False
        super().__init__(parent)
        self.empty_text = self.tr(
            "Type a message below and press Ctrl+Enter.\n\nWhen the conversation outgrows the "
            "model's context, older turns are summarised into checkpoints; every message stays "
            "here, and pinned ones are always sent word for word.")
        self.setObjectName("conversationView")
        self.setAccessibleName(self.tr("Conversation"))
        self.setAccessibleDescription(self.tr(
            "Messages of the chat. Ctrl+C copies the selected message, Ctrl+P pins it."))
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setUniformItemSizes(False)
        self.setMouseTracking(True)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.verticalScrollBar().setSingleStep(24)
        self._delegate = MessageDelegate(self)
        self._delegate.set_font(self.font())
        self.setItemDelegate(self._delegate)
        self._delegate.sizeMismatch.connect(self._schedule_relayout)
        self._relayout_timer = QTimer(self)
        self._relayout_timer.setSingleShot(True)
        self._relayout_timer.setInterval(0)
        self._relayout_timer.timeout.connect(self.scheduleDelayedItemsLayout)
        self._prefetch_timer = QTimer(self)
        self._prefetch_timer.setSingleShot(True)
        self._prefetch_timer.setInterval(30)
        self._prefetch_timer.timeout.connect(self._prefetch_visible)
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._scrolled)
        bar.rangeChanged.connect(self._range_changed)
        self.activated.connect(self._activated)

    # ------------------------------------------------------------ public API
    @property
    def message_delegate(self) -> MessageDelegate:
        return self._delegate

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        self._model = model if isinstance(model, ConversationModel) else None
        self._delegate.set_model(self._model)

    def set_read_only(self, read_only: bool) -> None:
        """No pin toggling (the History tab shows pins but cannot change them)."""
        self._read_only = read_only
        self._delegate.read_only = read_only
        if read_only:
            self.empty_text = ""
        self.viewport().update()

    def is_at_bottom(self) -> bool:
        return self._stick

    def scrollToBottom(self) -> None:
        """Jump to the end and follow new text from now on (until the user scrolls up)."""
        self._stick = True
        super().scrollToBottom()
        self._pin_to_bottom()

    def toggle_pin_selected(self) -> None:
        message_id = self._current_message_id()
        if message_id and not self._read_only:
            self.pinToggled.emit(message_id)

    def copy_selected(self) -> bool:
        index = self.currentIndex()
        if not index.isValid():
            return False
        message = index.data(MessageRole)
        text = message.content if message is not None else index.data()
        if not text:
            return False
        QGuiApplication.clipboard().setText(text)
        return True

    def build_context_menu(self, index: QModelIndex) -> QMenu | None:
        """The menu for a row (kept separate from exec so it can be driven in tests)."""
        if not index.isValid():
            return None
        menu = QMenu(self)
        kind = index.data(KindRole)
        if kind == KIND_MESSAGE:
            message_id = index.data(MessageIdRole)
            if not self._read_only:
                pin = menu.addAction(self.tr("Unpin") if index.data(PinnedRole)
                                     else self.tr("Pin"))
                pin.setObjectName("actionPinMessage")
                pin.triggered.connect(lambda: self.pinToggled.emit(message_id))
            copy = menu.addAction(self.tr("Copy text"))
            copy.setObjectName("actionCopyMessage")
            copy.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
            persistent = QPersistentModelIndex(index)
            copy.triggered.connect(lambda: self._copy_index(persistent))
        elif kind == KIND_MARKER:
            group_id = index.data(GroupIdRole)
            show = menu.addAction(self.tr("Show summary / history"))
            show.setObjectName("actionShowGroup")
            show.triggered.connect(lambda: self.groupActivated.emit(group_id))
        return menu

    # ------------------------------------------------------------ layout
    def doItemsLayout(self) -> None:
        """Relayout while keeping the bottom (or the top visible row) where it was."""
        if self._model is None:
            super().doItemsLayout()
            return
        self._adjusting = True
        try:
            self._delegate.set_width(self._layout_width())
            anchor: tuple[QPersistentModelIndex, int] | None = None
            if not self._stick:
                top = self.indexAt(QPoint(8, 1))
                if top.isValid():
                    anchor = (QPersistentModelIndex(top), self.visualRect(top).top())
            self._prefetch_around(anchor[0].row() if anchor else None)
            super().doItemsLayout()
            bar = self.verticalScrollBar()
            if self._stick:
                bar.setValue(bar.maximum())
            elif anchor is not None and anchor[0].isValid():
                moved = self.visualRect(self._index_of(anchor[0])).top() - anchor[1]
                bar.setValue(bar.value() + moved)
        finally:
            self._adjusting = False

    def dataChanged(self, top_left: QModelIndex | QPersistentModelIndex,
                    bottom_right: QModelIndex | QPersistentModelIndex,
                    roles: Sequence[int] = ()) -> None:
        """Repaint one row in place unless its height changed (a full relayout is costly)."""
        if top_left.isValid() and top_left.row() == bottom_right.row() and \
                not self._delegate.ensure_exact(top_left.row()):
            # Compared with the size the last layout used; visualRect() is asked only
            # afterwards because it queries sizeHint itself.
            self.viewport().update(self.visualRect(top_left))
            return
        super().dataChanged(top_left, bottom_right, list(roles))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._delegate.set_width(self._layout_width()):
            self.scheduleDelayedItemsLayout()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._delegate.set_font(self.font())
            self.scheduleDelayedItemsLayout()

    def _layout_width(self) -> int:
        """Viewport width with room for the scroll bar whether shown or not (no ping-pong)."""
        extent = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        return self.contentsRect().width() - extent

    def _schedule_relayout(self) -> None:
        if not self._relayout_timer.isActive():
            self._relayout_timer.start()

    def _prefetch_around(self, anchor_row: int | None) -> None:
        """Exact heights for the rows about to be visible, before the layout uses them."""
        model = self._model
        if model is None or not model.rows:
            return
        budget = self.viewport().height() * 2 + 200
        last = len(model.rows) - 1
        start = last if anchor_row is None else min(anchor_row, last)
        covered = 0
        for position in range(start, max(-1, start - PREFETCH_ROWS), -1):
            self._delegate.ensure_exact(position)
            covered += self._delegate.cached_height(position)
            if covered > budget:
                break
        if anchor_row is not None:
            covered = 0
            for position in range(start + 1, min(last + 1, start + PREFETCH_ROWS)):
                self._delegate.ensure_exact(position)
                covered += self._delegate.cached_height(position)
                if covered > budget:
                    break

    def _prefetch_visible(self) -> None:
        """After a scroll: measure rows near the viewport; relayout if estimates were off."""
        model = self._model
        if model is None or not model.rows:
            return
        top = self.indexAt(QPoint(8, 1))
        start = top.row() if top.isValid() else len(model.rows) - 1
        height = self.viewport().height()
        changed = False
        covered = 0
        for position in range(start, max(-1, start - PREFETCH_ROWS), -1):
            changed |= self._delegate.ensure_exact(position)
            covered += self._delegate.cached_height(position)
            if covered > height:
                break
        covered = 0
        for position in range(start + 1, min(len(model.rows), start + PREFETCH_ROWS)):
            changed |= self._delegate.ensure_exact(position)
            covered += self._delegate.cached_height(position)
            if covered > height * 2:
                break
        if changed:
            self.scheduleDelayedItemsLayout()

    # ------------------------------------------------------------ scrolling
    def _scrolled(self, value: int) -> None:
        if self._adjusting:
            return
        bar = self.verticalScrollBar()
        self._stick = value >= bar.maximum() - BOTTOM_SLACK
        self._prefetch_timer.start()

    def _range_changed(self, _minimum: int, _maximum: int) -> None:
        if not self._adjusting and self._stick:
            self._pin_to_bottom()

    def _pin_to_bottom(self) -> None:
        bar = self.verticalScrollBar()
        self._adjusting = True
        try:
            bar.setValue(bar.maximum())
        finally:
            self._adjusting = False

    # ------------------------------------------------------------ input
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._pin_hit(event.position()):
            index = self.indexAt(event.position().toPoint())
            self.setCurrentIndex(index)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            point = event.position().toPoint()
            index = self.indexAt(point)
            if index.isValid():
                if self._pin_hit(event.position()):
                    self.pinToggled.emit(index.data(MessageIdRole))
                    event.accept()
                    return
                if index.data(KindRole) == KIND_MARKER:
                    super().mouseReleaseEvent(event)
                    if not self.style().styleHint(
                            QStyle.StyleHint.SH_ItemView_ActivateItemOnSingleClick, None, self):
                        self.groupActivated.emit(index.data(GroupIdRole))
                    return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        index = self.indexAt(event.position().toPoint())
        if index.isValid() and (index.data(KindRole) == KIND_MARKER
                                or self._pin_hit(event.position())):
            event.accept()  # the single click already acted; no second activation
            return
        super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        index = self.indexAt(event.position().toPoint())
        hand = index.isValid() and (index.data(KindRole) == KIND_MARKER
                                    or self._pin_hit(event.position()))
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if hand
                                  else Qt.CursorShape.ArrowCursor)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Copy) and self.copy_selected():
            event.accept()
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        index = self.indexAt(event.pos())
        if index.isValid():
            self.setCurrentIndex(index)
        menu = self.build_context_menu(index)
        if menu is not None:
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(event.globalPos())

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.indexAt(event.pos())
            if index.isValid() and self._pin_hit(event.pos()):
                tip = (self.tr("Unpin: this message may be summarised again")
                       if index.data(PinnedRole)
                       else self.tr("Pin: always keep this message verbatim in the context"))
                QToolTip.showText(event.globalPos(), tip, self.viewport())
                return True
        return super().viewportEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        model = self.model()
        if model is None or model.rowCount() or not self.empty_text:
            return
        painter = QPainter(self.viewport())  # an empty chat says what to do, not nothing
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        painter.drawText(self.viewport().rect().adjusted(24, 24, -24, -24),
                         int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap),
                         self.empty_text)
        painter.end()

    # ------------------------------------------------------------ helpers
    def _pin_hit(self, position) -> bool:
        point = position.toPoint() if hasattr(position, "toPoint") else position
        if self._read_only:
            return False
        index = self.indexAt(point)
        if not index.isValid() or index.data(KindRole) != KIND_MESSAGE:
            return False
        return self._delegate.pin_hit_rect(self.visualRect(index)).contains(point)

    def _activated(self, index: QModelIndex) -> None:
        if index.isValid() and index.data(KindRole) == KIND_MARKER:
            self.groupActivated.emit(index.data(GroupIdRole))

    def _current_message_id(self) -> str | None:
        index = self.currentIndex()
        if not index.isValid():
            selected = self.selectedIndexes()
            index = selected[0] if selected else QModelIndex()
        return index.data(MessageIdRole) if index.isValid() else None

    def _index_of(self, persistent: QPersistentModelIndex) -> QModelIndex:
        model = self.model()
        return model.index(persistent.row(), persistent.column()) if model else QModelIndex()

    def _copy_index(self, index: QPersistentModelIndex) -> None:
        if index.isValid():
            self.setCurrentIndex(self._index_of(index))
            self.copy_selected()
