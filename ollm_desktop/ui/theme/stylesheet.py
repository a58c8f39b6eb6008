"""The small application stylesheet on top of Fusion and the palette: rounded surfaces, flat
bars and menus, a quiet splitter, slim scroll bars, the accent on the default button.

Only shapes and the few colours a palette role cannot carry; everything else comes from the
palette, so a widget's own ``palette(...)`` CSS keeps working in both schemes.
"""

from __future__ import annotations

from ollm_desktop.ui.theme.palettes import Colors
from ollm_desktop.ui.theme.tokens import RADIUS, SPACE


def stylesheet(c: Colors) -> str:
    r, s = RADIUS, SPACE
    return f"""
QMainWindow, QDialog {{ background: {c.window}; }}
QMenuBar {{ background: {c.window}; border: none; padding: 2px {s.xs}px; }}
QMenuBar::item {{ padding: {s.xs}px {s.s}px; border-radius: {r.control}px; }}
QMenuBar::item:selected {{ background: {c.surface_alt}; }}
QMenu {{ background: {c.raised}; border: 1px solid {c.border}; border-radius: {r.surface}px;
        padding: {s.xs}px; }}
QMenu::item {{ padding: {s.xs + 2}px {s.xl}px {s.xs + 2}px {s.m}px; border-radius: {r.control}px; }}
QMenu::item:selected {{ background: {c.accent}; color: {c.on_accent}; }}
QMenu::item:disabled {{ color: {c.disabled_text}; }}
QMenu::separator {{ height: 1px; background: {c.border}; margin: {s.xs}px {s.s}px; }}
QPushButton {{ background: {c.raised}; color: {c.text}; border: 1px solid {c.border};
              border-radius: {r.control}px; padding: {s.xs + 1}px {s.m}px; min-height: 18px; }}
QPushButton:hover {{ background: {c.surface_alt}; }}
QPushButton:pressed {{ background: {c.border}; }}
QPushButton:disabled {{ color: {c.disabled_text}; }}
QPushButton:default, QPushButton#sendButton {{ background: {c.accent}; color: {c.on_accent};
              border-color: {c.accent}; }}
QPushButton:default:disabled, QPushButton#sendButton:disabled {{ background: {c.border};
              color: {c.disabled_text}; border-color: {c.border}; }}
QDialogButtonBox {{ dialogbuttonbox-buttons-have-icons: 0; }}
QToolButton {{ border: 1px solid transparent; border-radius: {r.control}px; padding: 3px; }}
QToolButton:hover {{ background: {c.surface_alt}; border-color: {c.border}; }}
QLineEdit, QComboBox {{ background: {c.surface};
              border: 1px solid {c.border}; border-radius: {r.control}px;
              padding: 3px {s.s}px; min-height: 20px; }}
QComboBox::drop-down {{ border: none; width: 20px; }}
QLineEdit:focus, QComboBox:focus, QPlainTextEdit:focus, QTextEdit:focus {{
              border: 1px solid {c.accent}; }}
QPlainTextEdit, QTextEdit {{ border: 1px solid {c.border}; border-radius: {r.surface}px; }}
QPlainTextEdit#messageInput {{ border-radius: {r.bubble}px; padding: {s.xs}px {s.s}px; }}
QFrame#composer {{ background: {c.surface}; border: 1px solid {c.border};
                  border-radius: {r.bubble}px; }}
QFrame#composer QPlainTextEdit#messageInput {{ border: none; background: transparent;
                  padding: {s.xs}px 0; }}
QFrame#composer QPushButton {{ border-radius: 17px; padding: 0; background: transparent;
                  border: none; }}
QFrame#composer QPushButton:hover {{ background: {c.surface_alt}; }}
QFrame#composer QToolButton {{ border-radius: 17px; padding: 0; border: none; }}
QFrame#composer QToolButton:hover {{ background: {c.surface_alt}; }}
QFrame#composer QToolButton::menu-indicator {{ image: none; width: 0; }}
QFrame#composer QPushButton#sendButton {{ background: {c.accent}; }}
QFrame#composer QPushButton#sendButton:disabled {{ background: {c.border}; }}
QListView, QTreeView, QTableView {{ border: none; background: {c.surface}; }}
QListView#chatList {{ background: {c.window}; }}
QListView#chatList::item {{ border-radius: {r.control}px; padding: {s.xs}px {s.s}px; }}
QListView#chatList::item:selected {{ background: {c.accent}; color: {c.on_accent}; }}
QListWidget#preferencesPageList {{ background: {c.window}; border: none; }}
QListWidget#preferencesPageList::item {{ padding-left: {s.s}px; border-radius: {r.control}px; }}
QListWidget#preferencesPageList::item:selected {{ background: {c.accent}; color: {c.on_accent}; }}
QTabWidget::pane {{ border: none; }}
QTabBar::tab {{ padding: {s.xs + 2}px {s.m}px; border: none; border-bottom: 2px solid transparent;
               color: {c.text_secondary}; background: transparent; }}
QTabBar::tab:selected {{ color: {c.text}; border-bottom: 2px solid {c.accent}; }}
QSplitter::handle {{ background: {c.border}; }}
QSplitter::handle:horizontal {{ width: 1px; }}
QSplitter::handle:vertical {{ height: 1px; }}
QStatusBar {{ background: {c.window}; border-top: 1px solid {c.border};
             color: {c.text_secondary}; }}
QStatusBar::item {{ border: none; }}
QToolTip {{ background: {c.tooltip}; color: {c.on_tooltip}; border: none;
           border-radius: {r.control}px; padding: {s.xs}px {s.s}px; }}
QGroupBox {{ border: 1px solid {c.border}; border-radius: {r.surface}px; margin-top: {s.m}px;
            padding: {s.s}px; }}
QGroupBox::title {{ subcontrol-origin: margin; left: {s.s}px; padding: 0 {s.xs}px; }}
QProgressBar {{ border: none; border-radius: {r.control}px; background: {c.surface_alt};
               text-align: center; min-height: 8px; max-height: 14px; }}
QProgressBar::chunk {{ border-radius: {r.control}px; background: {c.accent}; }}
QScrollBar:vertical {{ background: transparent; width: 10px; margin: 0; }}
QScrollBar:horizontal {{ background: transparent; height: 10px; margin: 0; }}
QScrollBar::handle {{ background: {c.border}; border-radius: 4px; min-height: 24px; min-width: 24px;
                     margin: 2px; }}
QScrollBar::handle:hover {{ background: {c.text_secondary}; }}
QScrollBar::add-line, QScrollBar::sub-line {{ width: 0; height: 0; }}
QScrollBar::add-page, QScrollBar::sub-page {{ background: transparent; }}
QDockWidget::title {{ background: {c.window}; padding: {s.xs}px {s.s}px; }}
"""
