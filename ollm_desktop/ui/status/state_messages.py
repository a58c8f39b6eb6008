"""Messages and actions that follow the state (issue 32 points 3, 4 and 6).

- A connection problem's banner and the note above the input go once the problem is gone
  (a reply arrived, the server answers again).
- An action with nothing to act on is disabled, and its tooltip says why ("Undo restore" in
  a chat never restored; "Compact now…" and "Undo last compaction" are re-checked when a
  compaction's task has really ended, not while its result is being announced).
- An address given with ``--host`` is named as such, not sent to Preferences.
- Ctrl+F goes to the chat search; a status message that would be cut off makes room.
- The note above the input renders `backticks` as code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut

from ollm_desktop.controller import ContextSnapshot, OllamaStatus
from ollm_desktop.ui.status import action_reasons
from ollm_desktop.ui.status.ollama_banner import RETRY_QUESTION, inline_code_html

if TYPE_CHECKING:
    from ollm_desktop.ui.status.host import StateMessagesHost

CONNECTION_KINDS = frozenset({"unreachable", "stream_cut", "timeout", "http"})


class StateMessages:
    def __init__(self, content: StateMessagesHost) -> None:
        self.content = content
        c = content.controller
        self.restored = False  # the open chat has a restore to undo
        self.input_note_is_connection = False
        self.reachable = True
        self.last_error_kind: str | None = None
        content.actionsUpdated.connect(self.refine_actions)
        c.compactionTaskEnded.connect(content.update_actions)
        c.compactionStarted.connect(content.update_actions)  # Regenerate waits for it
        c.snapshotsChanged.connect(self._snapshots_changed)
        c.chatOpened.connect(self._snapshots_changed)
        c.replyFinished.connect(self._reply_arrived)
        c.ollamaStatus.connect(self._status)
        c.error.connect(self._error)
        c.sendFailed.connect(self._send_failed)
        c.contextChanged.connect(self._keep_result_figures)
        content.input_error.setTextFormat(Qt.TextFormat.RichText)
        content.banner.retryRequested.connect(self._retry)
        search = content.chat_panel.search_edit
        find = QShortcut(QKeySequence(QKeySequence.StandardKey.Find), content.window)
        find.activated.connect(search.setFocus)
        find.activated.connect(search.selectAll)
        find.setWhatsThis(content.tr("Search all chats"))
        content.window.statusBar().messageChanged.connect(self._fit_status)
        self._snapshots_changed()

    # ------------------------------------------------------------------ actions
    def _snapshots_changed(self, *_args: object) -> None:
        c = self.content.controller
        self.restored = c.chat is not None and any(
            info.reason == "before-restore" for info in c.list_snapshots())
        self.content.update_actions()

    def refine_actions(self) -> None:
        content, c = self.content, self.content.controller
        tr = content.tr
        has_chat, busy = c.chat is not None, c.busy or c.compacting
        undo_restore = content.action_undo_restore
        undo_restore.setEnabled(has_chat and self.restored and not busy)
        undo_restore.setToolTip(
            tr("Go back to the chat as it was before the last restore") if self.restored
            else tr("Nothing to undo: no snapshot has been restored in this chat"))
        why_busy = tr("Wait until the reply or the running compaction has finished")
        content.action_compact.setToolTip(
            tr("Open a chat first") if not has_chat else why_busy if busy
            else tr("Summarise older messages now to make room"))
        can_undo = c.snapshot.can_undo
        content.action_undo_compaction.setToolTip(
            tr("Open a chat first") if not has_chat else why_busy if busy and can_undo
            else tr("Go back to the state before the last compaction") if can_undo
            else tr("Nothing to undo: this chat has not been compacted"))
        action_reasons.explain(content)

    # ------------------------------------------------------------------ messages
    def _keep_result_figures(self, snapshot: ContextSnapshot) -> None:
        """The strip's "… → 65 tokens" names the newest checkpoint's size as it was made; when
        a recount moves it, the strip says the marker's figure (one source)."""
        strip = self.content.compaction_progress
        if not snapshot.groups or not strip.isVisible():
            return
        group = snapshot.groups[-1]
        text = strip.label.text()
        marker = f"{group.original_tokens:,} → {group.current_tokens:,} tokens"
        start = f"{group.original_tokens:,} → "
        if start in text and marker not in text:
            at = text.index(start) + len(start)
            end = text.find(" tokens", at)
            if end > at and text[at:end].replace(",", "").isdigit():
                strip.label.setText(text[:at] + f"{group.current_tokens:,}" + text[end:])

    def _reply_arrived(self, *_args: object) -> None:
        """A reply came through: a connection problem shown before is over."""
        banner = self.content.banner
        if banner.mode == "error" and self.last_error_kind in CONNECTION_KINDS:
            banner.hide_banner()
        if self.input_note_is_connection:
            self.content.input_error.hide()

    def _status(self, status: OllamaStatus) -> None:
        self.reachable = status.reachable
        if status.reachable and self.input_note_is_connection:
            self.content.input_error.hide()
            self.input_note_is_connection = False
        if not status.reachable and self.content.controller.host_from_command_line:
            self._name_command_line_host()

    def _error(self, kind: str, text: str) -> None:
        self.last_error_kind = kind
        bar, banner = self.content.window.statusBar(), self.content.banner
        if banner.retry_button.isVisibleTo(banner) and bar.currentMessage() == text:
            bar.showMessage(RETRY_QUESTION.sub("", text), 10000)  # the banner's button asks
        if kind == "unreachable" and self.content.controller.host_from_command_line:
            self._name_command_line_host()

    def _send_failed(self, _text: str, reason: str) -> None:
        self.input_note_is_connection = not self.reachable or \
            self.last_error_kind in CONNECTION_KINDS
        self.content.input_error.setText(inline_code_html(reason))

    def _name_command_line_host(self) -> None:
        """The address came with --host: say so (Preferences shows another one)."""
        label = self.content.banner.message_label
        text = label.text()
        preferences = self.content.tr("Check the address in Preferences")
        given = self.content.tr("Check the address given with --host")
        if preferences in text:
            label.setText(text.replace(preferences, given))
        elif "--host" not in text:
            label.setText(text + "<br>" + self.content.tr(
                "This address was given with --host when the app was started."))

    def _retry(self) -> None:
        """Retry after a cut reply: continue it once the server answers."""
        if self.last_error_kind == "stream_cut" and \
                self.content.action_continue.isEnabled():
            self.content.action_continue.trigger()

    def _fit_status(self, message: str) -> None:
        """A message wider than the room left of the permanent figures hides their secondary
        parts while it shows (the model's note, then the context size, then its fill in
        words: each is also in its tooltip), so it is never cut off."""
        content = self.content
        meter = content.context_meter
        optional = (content.reliability_indicator.model_label, meter.tier_label,
                    meter.text_label)
        if not message:
            for label in optional:
                label.setVisible(bool(label.text()))
            return
        bar = content.window.statusBar()
        needed = bar.fontMetrics().horizontalAdvance(message) + 32

        def room() -> int:
            taken = sum(w.sizeHint().width() for w in (content.reliability_indicator, meter)
                        if w.isVisible())
            return bar.width() - taken

        for label in optional:
            if needed <= room():
                return
            label.hide()

def install(content: StateMessagesHost) -> StateMessages:
    return StateMessages(content)
