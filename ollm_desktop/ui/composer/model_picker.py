"""The model picker at the top of the chat (``modelSelector``): each model in its list shows
its size, trained context and capability tags (Vision, Tools, Thinking), and beside the picker
a quiet line says the same of the model in use.

The selector's items keep what they were (the text is the model's name; a model that is not
installed carries its name as item data), so everything that reads the selector still works;
the details ride on ``MODEL_ROLE`` and the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QPalette, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QLabel, QWidget

from ollm_desktop.backend.models import ModelInfo
from ollm_desktop.controller import ChatController
from ollm_desktop.ui.text.model_details import capability_tags, facts_line, tooltip
from ollm_desktop.ui.text.model_rows import MODEL_ROLE, ModelRowDelegate, small_font

POPUP_WIDTH = 340


class ModelPicker(QObject):
    """Decorates the selector's items after each listing, and keeps the facts line."""

    def __init__(self, selector: QComboBox, controller: ChatController,
                 parent: QWidget) -> None:
        super().__init__(parent)
        self.selector, self.controller = selector, controller
        self.delegate = ModelRowDelegate(selector)
        selector.setItemDelegate(self.delegate)
        selector.view().setMinimumWidth(POPUP_WIDTH)  # room for the tags beside the name
        self.facts = QLabel()
        self.facts.setObjectName("modelFacts")
        self.facts.setTextFormat(Qt.TextFormat.PlainText)
        self.facts.setFont(small_font(self.facts.font()))
        self.facts.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        # After the selector is refilled (its filler connected first): decorate its items.
        controller.modelsChanged.connect(self.decorate)
        selector.currentIndexChanged.connect(lambda _index: self.show_current())
        self.decorate(tuple(controller.models))

    def decorate(self, models: tuple[ModelInfo, ...]) -> None:
        by_name = {m.name: m for m in models}
        selector = self.selector
        items = selector.model()
        for position in range(selector.count()):
            if selector.itemData(position) is not None:  # "(not installed)": nothing to say
                continue
            model = by_name.get(selector.itemText(position))
            if model is None:
                continue
            selector.setItemData(position, model, MODEL_ROLE)
            selector.setItemData(position, tooltip(model), Qt.ItemDataRole.ToolTipRole)
            item = items.item(position) if isinstance(items, QStandardItemModel) else None
            if item is not None:  # an embedding model cannot chat: listed, not choosable
                item.setEnabled(not model.embedding_only)
        self.show_current()

    def show_current(self) -> None:
        model = self.selector.currentData(MODEL_ROLE)
        if not isinstance(model, ModelInfo):
            self.facts.clear()
            self.selector.setToolTip(self.selector.tr("The model this chat talks to"))
            return
        tags = capability_tags(model)
        self.facts.setText("  ·  ".join(p for p in (facts_line(model), " · ".join(tags)) if p))
        self.selector.setToolTip(tooltip(model))
        self.facts.setToolTip(tooltip(model))
