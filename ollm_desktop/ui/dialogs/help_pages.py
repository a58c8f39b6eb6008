"""Help ▸ Keyboard shortcuts and Help ▸ How compaction works.

The shortcuts page is read from the window itself (every action with a key, the window's own
shortcuts and the message box's keys), so it lists what really works, including shortcuts a
feature adds later. Both pages are ordinary windows the user opened: they block nothing.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from ollm_desktop.ui.dialogs.host import HelpHost

SHORTCUTS_KEY = "Ctrl+/"


def _tr(text: str) -> str:
    return QCoreApplication.translate("HelpPages", text)


COMPACTION_PAGE = [
    ("h3", "How compaction works"),
    ("p", "A model reads a limited number of tokens at once (its context). When a chat grows "
          "past about 80 % of what is usable, ollm-desktop compacts it: the older messages "
          "are summarised into a checkpoint, and the recent ones stay word for word."),
    ("p", "Nothing is deleted. Every message stays in the conversation you see; dimmed "
          "messages are the ones the model now reads as part of a checkpoint. Click a "
          "checkpoint's marker to read its summary and the messages it stands for."),
    ("p", "What the model always keeps: your own recent messages word for word, pinned "
          "messages (Ctrl+P), the goal, and the exact names, paths and numbers you gave (a "
          "list of facts beside the checkpoints: Conversation ▸ Facts)."),
    ("p", "When the model's summary is unusable, the checkpoint is built from the messages "
          "by code; it says so in a small note."),
    ("p", "Reliability (in the status bar) says what compaction did to this chat: High while "
          "the checkpoints keep every fact you stated, lower when some were lost. Small "
          "models summarise less reliably; that is shown beside it, not as the level."),
    ("p", "Undo last compaction (Ctrl+Shift+Z) brings the earlier state back; Compact now… "
          "(Ctrl+Shift+K) compacts at once, with an optional focus; snapshots "
          "(Ctrl+Shift+S) keep restore points."),
]

# The message box's own keys, by the send-key preference (Ctrl+Enter and Esc are shortcuts
# of the window, listed with the rest).
INPUT_KEYS = {
    "enter": [("Enter", "Send the message"), ("Shift+Enter", "New line in the message")],
    "ctrl-enter": [("Enter", "New line in the message")],
}


def _key_text(sequence: QKeySequence) -> str:
    return sequence.toString(QKeySequence.SequenceFormat.NativeText)


def shortcut_rows(window: QWidget, send_key: str = "enter") -> list[tuple[str, str]]:
    """(keys, what they do) for every shortcut of the window, sorted by what they do."""
    rows: dict[str, str] = {}
    for action in window.findChildren(QAction):
        keys = [k for k in action.shortcuts() if not k.isEmpty()]
        name = action.text().replace("&", "").rstrip("…").strip()
        if keys and name:
            rows.setdefault(", ".join(_key_text(k) for k in keys), name)
    for shortcut in window.findChildren(QShortcut):
        key = _key_text(shortcut.key())
        if key and shortcut.whatsThis():
            rows.setdefault(key, shortcut.whatsThis())
    for key, text in INPUT_KEYS.get(send_key, INPUT_KEYS["enter"]):
        rows.setdefault(key, _tr(text))
    return sorted(rows.items(), key=lambda item: item[1].lower())


class HelpPage(QDialog):
    def __init__(self, name: str, title: str, html: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.browser = QTextBrowser()
        self.browser.setObjectName(name + "Text")
        self.browser.setOpenLinks(False)
        self.browser.setHtml(html)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(520, 560)


def shortcuts_html(window: QWidget, send_key: str = "enter") -> str:
    body = "".join(f"<tr><td><b>{escape(keys)}</b>&nbsp;&nbsp;&nbsp;</td>"
                   f"<td>{escape(text)}</td></tr>"
                   for keys, text in shortcut_rows(window, send_key))
    return f"<h3>{escape(_tr('Keyboard shortcuts'))}</h3><table cellpadding='3'>{body}</table>"


def compaction_html() -> str:
    return "".join(f"<{tag}>{escape(_tr(text))}</{tag}>" for tag, text in COMPACTION_PAGE)


class HelpPages:
    def __init__(self, content: HelpHost) -> None:
        self.window, self.controller = content.window, content.controller
        self.pages: dict[str, HelpPage] = {}
        self.action_shortcuts = content.add_action(
            "actionKeyboardShortcuts", _tr("&Keyboard shortcuts"), SHORTCUTS_KEY,
            self.show_shortcuts)
        self.action_compaction = content.add_action(
            "actionHowCompactionWorks", _tr("How &compaction works"), None,
            self.show_compaction)
        menu = content.menus["help"]  # before About, with a line between
        about = menu.actions()[0]
        menu.insertActions(about, [self.action_shortcuts, self.action_compaction])
        menu.insertSeparator(about)

    def _show(self, name: str, title: str, html: str) -> HelpPage:
        page = self.pages.get(name)
        if page is None:
            page = self.pages[name] = HelpPage(name, title, html, self.window)
            page.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        else:
            page.browser.setHtml(html)
        page.show()
        page.raise_()
        return page

    def show_shortcuts(self) -> HelpPage:
        return self._show("keyboardShortcutsPage", _tr("Keyboard shortcuts"),
                          shortcuts_html(self.window, self.controller.settings.send_key))

    def show_compaction(self) -> HelpPage:
        return self._show("compactionHelpPage", _tr("How compaction works"), compaction_html())


def install(content: HelpHost) -> HelpPages:
    return HelpPages(content)
