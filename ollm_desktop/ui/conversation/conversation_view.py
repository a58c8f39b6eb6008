"""The conversation list: pins, copy (messages and code blocks), compaction markers, and
stable scrolling.

Two costs shape this view. A full QListView relayout asks every row's size (tens of ms at
thousands of rows), so a single-row ``dataChanged`` whose height did not change only
repaints that row. And rows start with estimated heights, so every relayout keeps an anchor
(the bottom, or the top visible row) in place while estimates turn exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
    QAction,
    QContextMenuEvent,
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

from ollm_desktop.ui.conversation.conversation_model import ConversationModel, ConversationRow
from ollm_desktop.ui.conversation.message_copy import MessageCopier
from ollm_desktop.ui.conversation.message_delegate import MessageDelegate
from ollm_desktop.ui.conversation.roles import KIND_MARKER, GroupIdRole, KindRole, MessageIdRole
from ollm_desktop.ui.conversation.row_hotspots import (
    CODE,
    COPY,
    THINKING,
    hotspot,
    row_action,
    tooltip,
)
from ollm_desktop.ui.conversation.row_menu import build_row_menu, menu_target
from ollm_desktop.ui.text.row_labels import empty_chat_hint
from ollm_desktop.ui.theme import is_dark

BOTTOM_SLACK = 4  # px from the end that still count as "at the bottom"
PREFETCH_ROWS = 200  # most rows measured exactly around the anchor per relayout


class ConversationView(QListView):
    pinToggled = Signal(str)  # message id
    groupActivated = Signal(str)  # compressed group id

    def __init__(self, parent: QWidget | None = None) -> None:
        self._model: ConversationModel | None = None
        self._reply_actions: dict[str, QAction] = {}  # "continue" / "regenerate"
        # Edit, Fork, Delete...: in the row's menu when the test holds for the row; they act
        # on the current message (building the menu makes its row the current one).
        self.message_actions: list[tuple[QAction, Callable[[ConversationRow], bool]]] = []
        self.menu_actions: list[tuple[QAction, Callable[[ConversationRow], bool]]] = []  # no chip
        self._read_only = False
        self._stick = True
        self._adjusting = False
        super().__init__(parent)
        self.set_send_key("enter")
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
        self._delegate.set_dark(is_dark(self.palette()))
        self.copier = MessageCopier(self)  # actionCopyMessage: Ctrl+C, menu, the row's glyph
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
        self.copier.set_primary(not read_only)  # one actionCopyMessage per window
        if read_only:
            self.empty_text = ""
        self.viewport().update()

    def is_at_bottom(self) -> bool:
        return self._stick

    def set_send_key(self, key: str) -> None:
        """The empty chat's hint names the key that sends ("enter" or "ctrl-enter")."""
        self.empty_text = empty_chat_hint(key)

    def set_reply_actions(self, actions: dict[str, QAction]) -> None:
        """The window's Continue / Regenerate: the row's buttons and menu trigger them."""
        self._reply_actions = dict(actions)

    def scrollToTop(self) -> None:
        """Show the first row and stop following the end (a relayout keeps the top)."""
        self._stick = False
        self.executeDelayedItemsLayout()
        super().scrollToTop()

    def scroll_to_message(self, message_id: str) -> bool:
        """Show a message and select it (a search hit); False when it is not in the list."""
        row = self._model.row_of_message(message_id) if self._model is not None else None
        if row is None or self._model is None:
            return False
        self._stick = False
        self.executeDelayedItemsLayout()
        self._prefetch_around(row)  # exact heights near it: it stays where it is put
        self.doItemsLayout()
        index = self._model.index(row)
        self.setCurrentIndex(index)
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)
        return True

    def scrollToBottom(self) -> None:
        """Jump to the end and follow new text from now on (until the user scrolls up)."""
        self._stick = True
        super().scrollToBottom()
        self._pin_to_bottom()

    def toggle_pin_selected(self) -> None:
        message_id = self._current_message_id()
        if message_id and not self._read_only:
            self.pinToggled.emit(message_id)

    @property
    def copy_action(self) -> QAction:
        """``actionCopyMessage``: the selected (else hovered) message's Markdown source."""
        return self.copier.action

    def copy_selected(self) -> bool:
        return self.copier.copy_message()

    def build_context_menu(self, index: QModelIndex) -> QMenu | None:
        """The menu for a row (kept separate from exec so it can be driven in tests)."""
        return build_row_menu(self, index)

    @property
    def read_only(self) -> bool:
        return self._read_only

    @property
    def conversation_model(self) -> ConversationModel | None:
        return self._model

    @property
    def reply_actions(self) -> dict[str, QAction]:
        return self._reply_actions

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
        elif event.type() == QEvent.Type.PaletteChange:  # light <-> dark: code colours
            self._delegate.set_dark(is_dark(self.palette()))
            self.viewport().update()

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
        self._measure(start, budget, budget if anchor_row is not None else None)

    def _prefetch_visible(self) -> None:
        """After a scroll: measure rows near the viewport; relayout if estimates were off."""
        model = self._model
        if model is None or not model.rows:
            return
        top = self.indexAt(QPoint(8, 1))
        start = top.row() if top.isValid() else len(model.rows) - 1
        height = self.viewport().height()
        if self._measure(start, height, height * 2):
            self.scheduleDelayedItemsLayout()

    def _measure(self, start: int, above: int, below: int | None) -> bool:
        """Exact heights up from ``start`` over ``above`` px, then ``below``; True if any moved."""
        count = len(self._model.rows) if self._model is not None else 0
        changed = False
        down = range(start + 1, min(count, start + PREFETCH_ROWS)) if below is not None else ()
        for rows, limit in ((range(start, max(-1, start - PREFETCH_ROWS), -1), above),
                            (down, below or 0)):
            covered = 0
            for position in rows:
                changed |= self._delegate.ensure_exact(position)
                covered += self._delegate.cached_height(position)
                if covered > limit:
                    break
        return changed

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
        if event.button() == Qt.MouseButton.LeftButton and self._hotspot(event.position()):
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
                spot = self._hotspot(event.position())
                if spot == "pin":
                    self.pinToggled.emit(index.data(MessageIdRole))
                elif spot == COPY:
                    self.copy_action.trigger()
                elif spot == THINKING:
                    self.message_delegate.toggle_thinking(index.data(MessageIdRole))
                elif spot and spot.startswith(CODE):
                    self.copier.copy_code(index, int(spot[len(CODE):]))
                if spot:
                    action = row_action(self, spot)  # a hover button, Continue, Regenerate
                    if action is not None:
                        action.trigger()
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
                                or self._hotspot(event.position())):
            event.accept()  # the single click already acted; no second activation
            return
        super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        index = self.indexAt(event.position().toPoint())
        self.copier.set_hover(index)
        hand = index.isValid() and (index.data(KindRole) == KIND_MARKER
                                    or bool(self._hotspot(event.position())))
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if hand
                                  else Qt.CursorShape.ArrowCursor)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Copy) and self.copy_selected():
            event.accept()  # a read-only view's Ctrl+C (its action has no shortcut)
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        index, where = menu_target(self, event)  # from the keyboard: the current row's
        menu = self.build_context_menu(index)
        if menu is not None:
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(where)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Leave:  # no row under the mouse: no copy glyph
            self.copier.set_hover(QModelIndex())
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.indexAt(event.pos())
            tip = tooltip(index, self._hotspot(event.pos()), self) if index.isValid() else None
            if tip:
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
        painter.drawText(self.message_delegate.column_rect(self.viewport().rect().adjusted(
                         24, 24, -24, -24)),
                         int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap),
                         self.empty_text)
        painter.end()

    # ------------------------------------------------------------ helpers
    def _hotspot(self, position) -> str | None:
        """What a click at ``position`` acts on (see ``row_hotspots.hotspot``)."""
        return hotspot(self, position.toPoint() if hasattr(position, "toPoint") else position)

    def _activated(self, index: QModelIndex) -> None:
        if index.isValid() and index.data(KindRole) == KIND_MARKER:
            self.groupActivated.emit(index.data(GroupIdRole))

    def current_message_id(self) -> str | None:
        return self._current_message_id()

    def _current_message_id(self) -> str | None:
        index = self.currentIndex()
        if not index.isValid():
            selected = self.selectedIndexes()
            index = selected[0] if selected else QModelIndex()
        return index.data(MessageIdRole) if index.isValid() else None

    def _index_of(self, persistent: QPersistentModelIndex) -> QModelIndex:
        model = self.model()
        return model.index(persistent.row(), persistent.column()) if model else QModelIndex()

