"""The window's features, each installed into the built window by its own module (actions,
row buttons, bars and their wiring), so ``window_content`` stays the frame. Each is handed the
window's content typed by the small Protocol of the parts it uses (its folder's ``host``
module, ``ui.window_parts``): no feature imports the window, and mypy checks here that the
window has what each one asks for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ollm_desktop.ui.chat_list import chat_list_features
from ollm_desktop.ui.composer import box, drafts, image_attach
from ollm_desktop.ui.conversation import (
    branch_actions,
    current_row_actions,
    live_thinking,
    message_delete,
    recall_view,
    suggested_prompts,
    tool_calls,
)
from ollm_desktop.ui.conversation.search_highlight import SearchHighlight
from ollm_desktop.ui.dialogs import help_pages
from ollm_desktop.ui.documents import feature as documents
from ollm_desktop.ui.first_run import feature as first_run
from ollm_desktop.ui.side_panel import panel
from ollm_desktop.ui.side_panel.facts import feature as facts
from ollm_desktop.ui.status import reliability_facts, state_messages

if TYPE_CHECKING:
    from ollm_desktop.ui.composer.box import Composer
    from ollm_desktop.ui.composer.drafts import Drafts
    from ollm_desktop.ui.conversation.branch_actions import BranchActions
    from ollm_desktop.ui.conversation.live_thinking import LiveThinking
    from ollm_desktop.ui.conversation.suggested_prompts import SuggestedPrompts
    from ollm_desktop.ui.conversation.tool_calls import ToolCallsStrip
    from ollm_desktop.ui.dialogs.help_pages import HelpPages
    from ollm_desktop.ui.documents.feature import DocumentsFeature
    from ollm_desktop.ui.first_run.feature import FirstRun
    from ollm_desktop.ui.side_panel.facts.feature import FactsFeature
    from ollm_desktop.ui.side_panel.panel import SidePanelFeature
    from ollm_desktop.ui.status.state_messages import StateMessages
    from ollm_desktop.ui.window_content import WindowContent


class InstalledFeatures:
    """The feature objects the window keeps (``WindowContent`` has these names; ``install``
    sets them)."""

    branch_actions: BranchActions
    live_thinking: LiveThinking
    drafts: Drafts
    help_pages: HelpPages
    facts: FactsFeature
    documents: DocumentsFeature
    tool_calls: ToolCallsStrip
    suggested_prompts: SuggestedPrompts
    first_run: FirstRun
    state_messages: StateMessages
    side_panel: SidePanelFeature
    composer: Composer


def install(content: WindowContent) -> None:
    """In this order: a later feature finds the widgets an earlier one placed."""
    c = content
    c.branch_actions = branch_actions.install(c)
    message_delete.install(c)
    image_attach.install(c)
    chat_list_features.install(c, SearchHighlight(c.conversation_model, c))
    c.live_thinking = live_thinking.install(c)
    c.drafts = drafts.install(c)
    c.help_pages = help_pages.install(c)
    recall_view.install(c)
    c.facts = facts.install(c)
    c.documents = documents.install(c)
    c.tool_calls = tool_calls.install(c)
    c.suggested_prompts = suggested_prompts.install(c)
    c.first_run = first_run.install(c)
    reliability_facts.install(c)
    c.state_messages = state_messages.install(c)
    c.side_panel = panel.install(c)
    c.composer = box.install(c)
    current_row_actions.install(c)  # last: binds the row actions the features added
