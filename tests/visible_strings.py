"""Every string a user can see in a widget tree: texts, titles, tooltips, status tips,
placeholders, list, tree and tab texts (every row of an item view's model; of the
conversation's messages only their tooltips, their text being the user's and the model's
words), menus and their actions; what sits inside an "Advanced" section (a widget named
``advancedSection``) is left out, since the internal terms may be explained there."""

from __future__ import annotations

import re
from collections.abc import Iterator

from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QDoubleSpinBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QSpinBox,
    QTabBar,
    QTextEdit,
    QTreeWidget,
    QWidget,
)

from ollm_desktop.ui.conversation.roles import MessageIdRole

# The engine's words, not the user's (issue 32 point 6).
INTERNAL_TERMS = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"\btiers?\b", r"num_ctx", r"\bledger\b", r"\blevel:? \d", r"\bset[- ]aside\b",
    r"(?<![\w-])T\d\b", r"\[(GOAL|DECISION)\]", r"\baging history\b", r"\bkeep recent tokens\b",
))


def inside(widget: QWidget, names: tuple[str, ...]) -> bool:
    node: QWidget | None = widget
    while node is not None:
        if node.objectName() in names:
            return True
        node = node.parentWidget()
    return False


def _widget_strings(widget: QWidget) -> Iterator[str]:
    yield widget.toolTip()
    yield widget.statusTip()
    yield widget.whatsThis()
    if widget.isWindow():
        yield widget.windowTitle()
    if isinstance(widget, QLabel | QAbstractButton):
        yield widget.text()
    if isinstance(widget, QLineEdit):
        yield widget.placeholderText()
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        yield widget.placeholderText()
        yield widget.toPlainText()
    if isinstance(widget, QGroupBox):
        yield widget.title()
    if isinstance(widget, QComboBox):
        for i in range(widget.count()):
            yield widget.itemText(i)
    if isinstance(widget, QTabBar):
        for i in range(widget.count()):
            yield widget.tabText(i)
            yield widget.tabToolTip(i)
    if isinstance(widget, QMenu):
        yield widget.title()
    if isinstance(widget, QSpinBox | QDoubleSpinBox):
        yield widget.prefix()
        yield widget.suffix()
    if isinstance(widget, QAbstractSpinBox):
        yield widget.specialValueText()
    if isinstance(widget, QAbstractItemView) and widget.model() is not None:
        conversation = widget.objectName() == "conversationView"
        yield from _model_strings(widget.model(), QModelIndex(), conversation)
        if isinstance(widget, QTreeWidget):
            header = widget.headerItem()
            for column in range(header.columnCount()):
                yield header.text(column)





def _model_strings(model: QAbstractItemModel, parent: QModelIndex,
                   conversation: bool) -> Iterator[str]:
    """Display texts and tooltips of every row (and child row) of a model."""
    flat = isinstance(model, QAbstractListModel)  # (its columnCount is private in PySide)
    for row in range(model.rowCount(parent)):
        for column in range(1 if flat else max(1, model.columnCount(parent))):
            index = model.index(row, column, parent)
            message = conversation and model.data(index, MessageIdRole) is not None
            # a message's text is the user's or the model's words, not ours; its tooltip is
            for role in ((Qt.ItemDataRole.ToolTipRole,) if message else
                         (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)):
                value = model.data(index, role)
                if isinstance(value, str):
                    yield value
            if column == 0 and not flat and model.hasChildren(index):
                yield from _model_strings(model, index, conversation)


def visible_strings(root: QWidget, skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(where, text) for every non-empty string of ``root`` and its children, except inside
    an "Advanced" section or a widget named in ``skip``."""
    found: list[tuple[str, str]] = []
    names = ("advancedSection", *skip)
    for widget in [root, *root.findChildren(QWidget)]:
        if inside(widget, names):
            continue
        where = widget.objectName() or type(widget).__name__
        found += [(where, text.replace("&", "")) for text in _widget_strings(widget) if text]
    for action in root.findChildren(QAction):
        parent = action.parent()
        if isinstance(parent, QWidget) and inside(parent, names):
            continue
        for text in (action.text(), action.toolTip(), action.statusTip()):
            if text:
                found.append((action.objectName() or "action", text.replace("&", "")))
    return found


def internal_terms(strings: list[tuple[str, str]]) -> list[str]:
    return [f"{where}: {text[:120]!r}" for where, text in strings
            for term in INTERNAL_TERMS if term.search(text)]
