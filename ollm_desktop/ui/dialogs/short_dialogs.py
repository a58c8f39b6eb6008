"""Small one-question dialogs and message boxes used by the main window.

Each ``ask_*`` function is split into a builder (``*_dialog``), testable without a modal loop,
and the blocking call the main window uses.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("dialogs", text)


# ------------------------------------------------------------------ snapshot label
def snapshot_label_dialog(parent: QWidget | None) -> QInputDialog:
    dialog = QInputDialog(parent)
    dialog.setObjectName("snapshotLabelDialog")
    dialog.setAccessibleName(_tr("Snapshot label"))
    dialog.setWindowTitle(_tr("Create snapshot"))
    dialog.setLabelText(_tr("Label for this snapshot (optional):"))
    dialog.setInputMode(QInputDialog.InputMode.TextInput)
    dialog.setOkButtonText(_tr("Create"))
    return dialog


def ask_snapshot_label(parent: QWidget | None) -> str | None:
    """The label (possibly empty), or None when cancelled."""
    dialog = snapshot_label_dialog(parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.textValue().strip()
    finally:
        dialog.deleteLater()


# -------------------------------------------------------------------- compact now
class CompactDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compactDialog")
        self.setAccessibleName(self.tr("Compact now"))
        self.setWindowTitle(self.tr("Compact now"))
        layout = QVBoxLayout(self)
        explanation = QLabel(self.tr(
            "Older messages are summarised into a checkpoint to free context. Pinned messages "
            "and the most recent messages stay as they are, a snapshot is taken first, and you "
            "can undo the compaction afterwards (Conversation ▸ Undo last compaction)."))
        explanation.setWordWrap(True)
        self.focus_edit = QLineEdit()
        self.focus_edit.setObjectName("compactFocus")
        self.focus_edit.setAccessibleName(self.tr("Summary focus"))
        self.focus_edit.setPlaceholderText(self.tr("e.g. the database schema decisions"))
        focus_label = QLabel(self.tr("What should the summary focus on? (optional)"))
        focus_label.setBuddy(self.focus_edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Compact"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(explanation)
        layout.addWidget(focus_label)
        layout.addWidget(self.focus_edit)
        layout.addWidget(buttons)
        self.resize(460, self.sizeHint().height())

    def focus_text(self) -> str:
        return self.focus_edit.text().strip()


def ask_compact_focus(parent: QWidget | None) -> str | None:
    """"" for no focus, None when cancelled."""
    dialog = CompactDialog(parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.focus_text()
    finally:
        dialog.deleteLater()


# -------------------------------------------------------------------------- about
def _file_url(path: str) -> str:
    return QUrl.fromLocalFile(str(Path(path))).toString()


def about_box(parent: QWidget | None, versions: dict[str, str],
              paths: dict[str, str]) -> QMessageBox:
    box = QMessageBox(parent)
    box.setObjectName("aboutDialog")
    box.setAccessibleName(_tr("About ollm-desktop"))
    box.setWindowTitle(_tr("About ollm-desktop"))
    box.setIcon(QMessageBox.Icon.Information)
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText("<h3>ollm-desktop {}</h3><p>{}</p>".format(
        escape(versions.get("ollm-desktop", "")),
        escape(_tr("A desktop chat for local Ollama models that compresses long "
                   "conversations instead of forgetting them."))))
    version_rows = "".join(f"<tr><td>{escape(k)}</td><td>&nbsp;&nbsp;{escape(v)}</td></tr>"
                           for k, v in versions.items() if k != "ollm-desktop")
    path_rows = "".join(
        f"<tr><td>{escape(k)}</td><td>&nbsp;&nbsp;<a href='{escape(_file_url(v))}'>"
        f"{escape(v)}</a></td></tr>" for k, v in paths.items())
    box.setInformativeText(f"<table>{version_rows}</table><br><table>{path_rows}</table>")
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    return box


def show_about(parent: QWidget | None, versions: dict[str, str],
               paths: dict[str, str]) -> QMessageBox:
    box = about_box(parent, versions, paths)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
