"""Issue 15's everyday features, each installed into the built window by its own module
(actions, row buttons, bars and their wiring), so ``window_content`` stays the frame."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ollm_desktop.ui import (
    branch_actions,
    chat_list_features,
    composer,
    drafts,
    facts,
    first_run_feature,
    help_pages,
    image_attach,
    live_thinking,
    message_delete,
    recall_view,
    reliability_facts,
    side_panel,
    state_messages,
    tool_calls,
)
from ollm_desktop.ui.documents import feature as documents

if TYPE_CHECKING:
    from ollm_desktop.ui.window_content import WindowContent


def install(content: WindowContent) -> None:
    for feature in (branch_actions, message_delete, image_attach, chat_list_features,
                    live_thinking, drafts, help_pages, recall_view, facts, documents,
                    tool_calls, first_run_feature, reliability_facts, state_messages,
                    side_panel, composer):
        feature.install(content)
