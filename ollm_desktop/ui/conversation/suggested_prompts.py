"""Suggested first prompts in an empty chat (issue 32, point 5): under the empty chat's hint,
a few prompts a new user can try. A click puts the prompt in the input, not sent, so that it
can be changed first. They go as soon as the chat has a message, and come back for the next
empty one."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from ollm_desktop.ui.conversation.conversation_model import ConversationModel
from ollm_desktop.ui.conversation.conversation_view import ConversationView
from ollm_desktop.ui.conversation.host import SuggestedPromptsHost
from ollm_desktop.ui.text.suggested_prompts import SUGGESTED_PROMPTS
from ollm_desktop.ui.theme import SPACE

BELOW_MIDDLE = 64  # px from the viewport's middle (where the hint is) to the first prompt


class SuggestedPrompts(QWidget):
    """The prompts, laid over the conversation's viewport while its list is empty."""

    def __init__(self, view: ConversationView, model: ConversationModel,
                 message_input: QPlainTextEdit) -> None:
        super().__init__(view.viewport())
        self.setObjectName("suggestedPrompts")
        self.view, self.model, self.message_input = view, model, message_input
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(SPACE.s)
        self.buttons: list[QPushButton] = []
        for prompt in SUGGESTED_PROMPTS:
            button = QPushButton(self.tr(prompt))
            button.setObjectName("suggestedPrompt")
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setToolTip(self.tr("Put this in the message box (Enter sends it)"))
            button.clicked.connect(lambda _=False, p=prompt: self.choose(p))
            layout.addWidget(button)
            self.buttons.append(button)
        for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset):
            signal.connect(self.follow)
        view.viewport().installEventFilter(self)
        self.follow()

    def choose(self, prompt: str) -> None:
        self.message_input.setPlainText(prompt)
        self.message_input.moveCursor(self.message_input.textCursor().MoveOperation.End)
        self.message_input.setFocus()

    def follow(self, *_: object) -> None:
        """Shown exactly while the list is empty, under the hint, in the reading column."""
        empty = self.model.rowCount() == 0
        self.setVisible(empty)
        if not empty:
            return
        area = self.view.viewport().rect()
        column = self.view.message_delegate.column_rect(area.adjusted(24, 24, -24, -24))
        width = min(column.width(), 520)
        self.resize(width, self.sizeHint().height())
        self.move(column.center().x() - width // 2, area.center().y() + BELOW_MIDDLE)
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.follow()
        return False


def install(content: SuggestedPromptsHost) -> SuggestedPrompts:
    return SuggestedPrompts(content.conversation_view, content.conversation_model,
                            content.message_input)
