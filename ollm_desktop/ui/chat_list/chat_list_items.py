"""How the chat list's rows look and are edited: date headers (not selectable), chats, a
family's branches indented under its chat, forks with a small mark, and the in-place title
editor (Enter saves, Escape cancels, a blank name is refused)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ollm_desktop.ui.chat_list.chat_list_rows import ListRow

CHAT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
MESSAGE_ID_ROLE = Qt.ItemDataRole.UserRole + 2  # a search hit: the message to show
TITLE_ROLE = Qt.ItemDataRole.UserRole + 3  # the chat's title (a branch or a hit shows other text)
ROW_ROLE = Qt.ItemDataRole.UserRole + 4  # the ListRow behind the item
HEADER_ROLE = Qt.ItemDataRole.UserRole + 5  # True on a date / Pinned header

PAD = 8
INDENT = 14
BRANCH_MARK = "↳"
FORK_MARK = "↗"  # (in every common UI font)

AnyIndex = QModelIndex | QPersistentModelIndex
Commit = Callable[[AnyIndex, str], None]


def row_of(index: AnyIndex) -> ListRow | None:
    row = index.data(ROW_ROLE)
    return row if isinstance(row, ListRow) else None


def shown_text(row: ListRow | None, text: str, metrics: QFontMetrics, width: int) -> str:
    """What fits of a row's text: a search hit keeps its match in sight (with a little of
    what comes before it), a fork keeps the end of its name ("… (fork)"), others end in …."""
    if metrics.horizontalAdvance(text) <= width or row is None:
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    if row.fork_hint and not row.branch:
        return metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, width)
    if row.kind != "hit" or not row.match:
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    who, _, body = text.strip().partition(": ")
    lead = f"{who}: "
    room = width - metrics.horizontalAdvance(lead)
    at = body.casefold().find(row.match.casefold())
    if at < 0 or room <= 0:
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    start = at
    while start > 0 and metrics.horizontalAdvance("…" + body[start - 1:at]) <= room // 4:
        start -= 1
    space = body.find(" ", start, at)
    if start > 0 and space >= 0:
        start = space + 1  # from a word's start
    shown = ("…" if start > 0 else "") + body[start:]
    return lead + metrics.elidedText(shown, Qt.TextElideMode.ElideRight, room)


class ChatListDelegate(QStyledItemDelegate):
    """Paints the rows; ``commit(index, text)`` receives an accepted new name."""

    def __init__(self, commit: Commit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._commit = commit

    # ------------------------------------------------------------- geometry
    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        line = QFontMetrics(option.font).height()
        if index.data(HEADER_ROLE):
            return QSize(120, line + 14)
        return QSize(120, line + 10)

    @staticmethod
    def _lead(row: ListRow | None) -> int:
        """Pixels before a row's text: its indent and mark."""
        if row is None:
            return PAD
        return PAD + row.depth * INDENT

    # ------------------------------------------------------------- painting
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        if index.data(HEADER_ROLE):
            self._paint_header(painter, option, index)
            return
        row = row_of(index)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text, opt.text = opt.text, ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect: QRect = opt.rect.adjusted(self._lead(row), 0, -PAD, 0)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = opt.palette
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        muted = palette.color(role) if selected else palette.color(
            QPalette.ColorRole.PlaceholderText)
        painter.save()
        painter.setFont(opt.font)
        metrics = QFontMetrics(opt.font)
        align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        mark = BRANCH_MARK if row is not None and row.branch else \
            FORK_MARK if row is not None and row.fork_hint else ""
        if mark:
            painter.setPen(muted)
            painter.drawText(rect, align, mark)
            rect.setLeft(rect.left() + metrics.horizontalAdvance(mark + " "))
        painter.setPen(palette.color(role))
        painter.drawText(rect, align, shown_text(row, text, metrics, rect.width()))
        painter.restore()

    def text_width(self, option: QStyleOptionViewItem, index: AnyIndex) -> int:
        """The room a row's text has (after its indent and mark), as ``paint`` lays it out."""
        row = row_of(index)
        width = option.rect.width() - self._lead(row) - PAD
        mark = BRANCH_MARK if row is not None and row.branch else \
            FORK_MARK if row is not None and row.fork_hint else ""
        return width - (QFontMetrics(option.font).horizontalAdvance(mark + " ") if mark else 0)

    def _paint_header(self, painter: QPainter, option: QStyleOptionViewItem,
                      index: AnyIndex) -> None:
        painter.save()
        font = QFont(option.font)
        font.setBold(True)
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        painter.setFont(font)
        palette: QPalette = option.palette
        painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
        rect = option.rect.adjusted(PAD, 6, -PAD, -2)
        painter.drawText(rect, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft,
                         str(index.data(Qt.ItemDataRole.DisplayRole) or ""))
        painter.restore()

    # -------------------------------------------------------------- editing
    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: AnyIndex) -> QWidget:
        editor = QLineEdit(parent)
        editor.setObjectName("chatTitleEditor")
        editor.setAccessibleName(self.tr("Chat name"))
        editor.setFrame(False)
        return editor

    @staticmethod
    def name_of(index: AnyIndex) -> str:
        """What renaming the row edits: a nested branch's label, else the chat's title."""
        row = row_of(index)
        if row is None:
            return ""
        return row.text if row.branch else row.title

    def setEditorData(self, editor: QWidget, index: AnyIndex) -> None:
        if isinstance(editor, QLineEdit):
            editor.setText(self.name_of(index))
            editor.selectAll()

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: AnyIndex) -> None:
        lead = self._lead(row_of(index)) - 3
        editor.setGeometry(option.rect.adjusted(lead, 1, -2, -1))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: AnyIndex) -> None:
        """Enter (or leaving the editor) saves; a blank name is refused: the old one stays."""
        if not isinstance(editor, QLineEdit):
            return
        text = editor.text().strip()
        if text and text != self.name_of(index):
            self._commit(index, text)
