"""One right-hand side panel (``sidePanel``) instead of IDE-style docks: Goal, Facts,
Checkpoint and Snapshots are its tabs, and it can be hidden (Conversation ▸ Side panel).

The goal and facts panels stay the widgets they are (their objectNames, their actions, their
refresh on being shown): they are taken out of the dock area and become pages, without their
title bars. The checkpoint panel leaves the splitter for its tab, and the panel takes its
place there. The window keeps a minimum width of at most 1024 px with the panel open on any
tab, and the chat list at least 200 px; below ``OVERLAY_BELOW`` px the panel lies over the
conversation's right side instead of pushing it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QMainWindow,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.ui.side_panel.snapshot_browser import SnapshotBrowser
from ollm_desktop.ui.theme import icon

if TYPE_CHECKING:
    from ollm_desktop.ui.side_panel.host import SidePanelHost

PANEL_WIDTH = 340  # its minimum: the pages scroll or wrap inside it
CHAT_LIST_MIN = 200
OVERLAY_BELOW = 1100  # a narrower window gets the panel over the conversation


class SidePanel(QFrame):
    """The tabs; ``show_tab(name)`` opens the panel on one of them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidePanel")
        self.setAccessibleName(self.tr("Side panel"))
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setMinimumWidth(PANEL_WIDTH)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("sidePanelTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setTabsClosable(False)
        self.tabs.setUsesScrollButtons(False)  # four short tabs: elided, never scrolled
        self.tabs.setElideMode(Qt.TextElideMode.ElideRight)
        layout.addWidget(self.tabs)
        self.pages: dict[str, QWidget] = {}
        self.labels: dict[str, tuple[str, str]] = {}  # name -> (title, icon name)

    def add_page(self, name: str, page: QWidget, title: str, icon_name: str) -> None:
        if isinstance(page, QDockWidget):  # a page now: no title bar, no float or close
            page.setTitleBarWidget(QWidget())
            page.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
            page.setFloating(False)
        page.setMinimumWidth(0)
        self.pages[name] = page
        self.labels[name] = (title, icon_name)
        self.tabs.addTab(page, icon(icon_name), title)

    def adopt(self, window: QMainWindow) -> None:
        """Take back a page that ``QMainWindow.restoreState`` put into the dock area (it finds
        dock widgets anywhere below the window, and the saved state still names them)."""
        for index, (name, page) in enumerate(self.pages.items()):
            if self.tabs.indexOf(page) >= 0 or not isinstance(page, QDockWidget):
                continue
            window.removeDockWidget(page)
            title, icon_name = self.labels[name]
            self.tabs.insertTab(index, page, icon(icon_name), title)
            page.setFloating(False)

    def show_tab(self, name: str) -> None:
        self.tabs.setCurrentWidget(self.pages[name])
        self.pages[name].setVisible(True)
        self.show()

    def current(self) -> str | None:
        page = self.tabs.currentWidget()
        return next((n for n, p in self.pages.items() if p is page), None)


class SidePanelFeature(QObject):
    def __init__(self, content: SidePanelHost) -> None:
        super().__init__(content.window)
        self.content = content
        window = content.window
        self.panel = SidePanel()
        self.splitter: QSplitter = content.splitter
        facts = window.findChild(QDockWidget, "factsPanel")
        for dock in (content.goal_panel, facts):
            if dock is not None:
                window.removeDockWidget(dock)
        self.splitter.replaceWidget(2, self.panel)
        tr = content.tr
        self.panel.add_page("goal", content.goal_panel, tr("Goal"), "goal")
        if facts is not None:
            self.panel.add_page("facts", facts, tr("Facts"), "facts")
        self.panel.add_page("checkpoint", content.group_panel, tr("Checkpoint"), "checkpoint")
        self.snapshots = SnapshotBrowser(content.controller, self.panel)
        self.snapshots.setWindowFlags(Qt.WindowType.Widget)
        self.snapshots.setObjectName("sidePanelSnapshots")
        self.snapshots.close_button.hide()  # a tab: the panel hides, the page does not close
        self.panel.add_page("snapshots", self.snapshots, tr("Snapshots"), "snapshots")
        self.panel.tabs.currentChanged.connect(self._tab_changed)
        self.panel.hide()
        content.chat_panel.setMinimumWidth(CHAT_LIST_MIN)
        self.splitter.setChildrenCollapsible(False)
        self.action = QAction(icon("side_panel"), tr("Side &panel"), window)
        self.action.setObjectName("actionSidePanel")
        self.action.setShortcut("Ctrl+Shift+P")
        self.action.setCheckable(True)
        self.action.setToolTip(tr("Show or hide the goal, facts, checkpoint and snapshots"))
        self.action.triggered.connect(self._toggle)
        window.addAction(self.action)
        content.menus["conversation"].addAction(self.action)
        self._follow(content.action_goal, "goal")
        facts_action = window.findChild(QAction, "actionFacts")
        if facts_action is not None:
            self._follow(facts_action, "facts")
        content.groupShown.connect(self._group_shown)
        content.groupClosed.connect(self._group_closed)
        window.installEventFilter(self)
        restore = window.restoreState

        def restore_state(state: object, version: int = 0) -> bool:
            done = restore(state, version)  # type: ignore[arg-type]
            self.panel.adopt(window)
            return bool(done)

        window.restoreState = restore_state  # type: ignore[method-assign, assignment]

    # ------------------------------------------------------------------ showing
    def _follow(self, action: QAction, name: str) -> None:
        """The menu's Goal / Facts open (or close) their tab; connected after the dock's own
        handling, which this corrects (a page is shown by its tab, not by itself)."""
        def follow(shown: bool) -> None:
            if shown:
                self.panel.show_tab(name)
            elif self.panel.current() == name:
                self.panel.hide()
            self._sync()
        action.triggered.connect(follow)

    def _toggle(self, shown: bool) -> None:
        if shown:
            self.panel.show_tab(self.panel.current() or "goal")
        else:
            self.panel.hide()
        self._sync()

    def _tab_changed(self, _index: int) -> None:
        if self.panel.current() == "snapshots":
            self.snapshots.refresh()

    def _group_shown(self, _group_id: str) -> None:
        self.panel.show_tab("checkpoint")
        self._sync()

    def _group_closed(self) -> None:
        """The checkpoint's tab stays a page (only hidden with its panel)."""
        self.content.group_panel.setVisible(self.panel.current() == "checkpoint")
        if self.panel.current() == "checkpoint":
            self.panel.hide()
            self._sync()

    def _sync(self) -> None:
        shown = self.panel.isVisibleTo(self.content.window)
        self.action.setChecked(shown)
        if shown and self.panel.parentWidget() is self.splitter:
            sizes = self.splitter.sizes()
            want = 420  # its four tabs read whole
            if sizes[2] < want and sizes[1] - (want - sizes[2]) >= 480:
                self.splitter.setSizes([sizes[0], sizes[1] - (want - sizes[2]), want])
        self._place()

    # ------------------------------------------------------------------ overlay
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._place()
        return False

    def _centre(self) -> QWidget:
        centre = self.content.conversation_view.parentWidget()
        assert centre is not None
        return centre

    def _place(self) -> None:
        """In the splitter when there is room; over the conversation's right side when not."""
        window, panel = self.content.window, self.panel
        narrow = window.width() < OVERLAY_BELOW
        overlaid = panel.parentWidget() is not self.splitter
        if narrow and not overlaid and panel.isVisibleTo(window):
            shown = panel.isVisibleTo(window)
            panel.setParent(self._centre())
            panel.setVisible(shown)
            overlaid = True
        elif not narrow and overlaid:
            shown = panel.isVisibleTo(window)
            self.splitter.insertWidget(2, panel)
            panel.setVisible(shown)
            overlaid = False
        if overlaid:
            centre = self._centre()
            width = min(PANEL_WIDTH + 40, centre.width() - 40)
            panel.setGeometry(centre.width() - width, 0, width, centre.height())
            panel.raise_()


def install(content: SidePanelHost) -> SidePanelFeature:
    return SidePanelFeature(content)
