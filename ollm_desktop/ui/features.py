"""Issue 15's everyday features, each installed into the built window by its own module
(actions, row buttons, bars and their wiring), so ``window_content`` stays the frame."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ollm_desktop.ui.chat_list import chat_list_features
from ollm_desktop.ui.composer import box as composer
from ollm_desktop.ui.composer import drafts, image_attach
from ollm_desktop.ui.conversation import (
    branch_actions,
    live_thinking,
    message_delete,
    recall_view,
    tool_calls,
)
from ollm_desktop.ui.dialogs import help_pages
from ollm_desktop.ui.documents import feature as documents
from ollm_desktop.ui.first_run import feature as first_run_feature
from ollm_desktop.ui.side_panel import facts
from ollm_desktop.ui.side_panel import panel as side_panel
from ollm_desktop.ui.status import reliability_facts, state_messages

if TYPE_CHECKING:
    from ollm_desktop.ui.window_content import WindowContent


def install(content: WindowContent) -> None:
    for feature in (branch_actions, message_delete, image_attach, chat_list_features,
                    live_thinking, drafts, help_pages, recall_view, facts, documents,
                    tool_calls, first_run_feature, reliability_facts, state_messages,
                    side_panel, composer):
        feature.install(content)
