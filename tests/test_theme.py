"""The visual system (ui/theme/): contrast of both palettes, the scheme switch, the stylesheet,
the measures and the icon set."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette

from ollm_desktop.ui import theme
from ollm_desktop.ui.theme import palettes, tokens
from ollm_desktop.ui.theme.icons import GLYPHS

SCHEMES = {"light": palettes.LIGHT, "dark": palettes.DARK}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_text_colour_reads_at_wcag_aa_on_its_backgrounds(scheme):
    colors = SCHEMES[scheme]
    low = []
    for text, backgrounds in palettes.TEXT_ON.items():
        for background in backgrounds:
            ratio = palettes.contrast_ratio(getattr(colors, text), getattr(colors, background))
            if ratio < 4.5:
                low.append(f"{text} on {background}: {ratio:.2f}")
    assert not low, low


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_built_palette_s_text_roles_read_at_wcag_aa(scheme):
    """From the QPalette the app installs, not only from our table of colours."""
    p = palettes.build_palette(SCHEMES[scheme])
    role = QPalette.ColorRole
    pairs = [(role.WindowText, role.Window), (role.Text, role.Base),
             (role.Text, role.AlternateBase), (role.ButtonText, role.Button),
             (role.PlaceholderText, role.Base), (role.PlaceholderText, role.Window),
             (role.HighlightedText, role.Highlight), (role.ToolTipText, role.ToolTipBase),
             (role.Link, role.Base), (role.BrightText, role.Base)]
    for fg, bg in pairs:
        ratio = palettes.contrast_ratio(p.color(fg).name(), p.color(bg).name())
        assert ratio >= 4.5, (scheme, fg, bg, ratio)


def test_every_text_colour_is_in_the_contrast_table():
    """A new text colour cannot escape the check: each *text* field is listed with its
    backgrounds (disabled text is exempt in WCAG, and kept at 3:1 below)."""
    text_fields = {name for name in palettes.color_names()
                   if "text" in name or name.startswith("on_") or name == "link"}
    assert text_fields - {"disabled_text"} == set(palettes.TEXT_ON)
    for colors in SCHEMES.values():
        assert palettes.contrast_ratio(colors.disabled_text, colors.surface) >= 3.0


def test_contrast_ratio_matches_wcag_reference_values():
    assert palettes.contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert palettes.contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert palettes.contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)


@pytest.fixture
def restore_theme(qapp):
    palette, sheet = qapp.palette(), qapp.styleSheet()
    yield
    theme.apply_theme(qapp, "system")
    qapp.setPalette(palette)
    qapp.setStyleSheet(sheet)


def test_the_switch_installs_fusion_the_palette_and_the_stylesheet(qapp, restore_theme):
    theme.apply_theme(qapp, "dark")
    assert theme.apply.base_style_name(qapp) == "fusion"
    assert qapp.palette().color(QPalette.ColorRole.Window).name() == palettes.DARK.window
    assert palettes.DARK.accent in qapp.styleSheet()
    theme.apply_theme(qapp, "light")
    assert qapp.palette().color(QPalette.ColorRole.Window).name() == palettes.LIGHT.window
    assert palettes.LIGHT.accent in qapp.styleSheet()
    assert theme.current_colors() is palettes.LIGHT


def test_system_follows_the_desktop_s_scheme_when_it_changes(qapp, restore_theme, monkeypatch):
    """'system' reads QStyleHints.colorScheme and switches on its change signal (the offscreen
    platform reports no scheme, so what it would report is stood in for)."""
    desktop = {"scheme": Qt.ColorScheme.Light}
    monkeypatch.setattr(theme.apply, "system_scheme", lambda app: desktop["scheme"])
    theme.apply_theme(qapp, "system")
    assert not theme.is_dark(qapp.palette())
    hints = qapp.styleHints()
    desktop["scheme"] = Qt.ColorScheme.Dark
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert theme.is_dark(qapp.palette())
    desktop["scheme"] = Qt.ColorScheme.Light
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert not theme.is_dark(qapp.palette())
    theme.apply_theme(qapp, "light")  # a forced scheme ignores the desktop's changes
    desktop["scheme"] = Qt.ColorScheme.Dark
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert not theme.is_dark(qapp.palette())


def test_status_text_colours_follow_the_scheme(qapp, restore_theme):
    theme.apply_theme(qapp, "light")
    assert theme.status_text_color("over").name() == palettes.LIGHT.error_text
    theme.apply_theme(qapp, "dark")
    assert theme.status_text_color("over").name() == palettes.DARK.error_text


def test_measures_sit_on_the_grid_and_the_type_scale_rises():
    assert all(value % 4 == 0 for value in vars(tokens.SPACE).values())
    steps = [tokens.TYPE.caption, tokens.TYPE.body, tokens.TYPE.subtitle, tokens.TYPE.title]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    assert tokens.TYPE.points(10, "title") == 14.5


def test_every_icon_name_has_a_glyph_in_the_set(qapp):
    for name in GLYPHS:
        assert not theme.icon(name).isNull(), name
    assert theme.icon("no such icon").isNull()


def test_ok_and_cancel_carry_no_icons(qapp, qtbot, restore_theme):
    """Desktop platform themes (GNOME, KDE) give dialog buttons tick and cross icons; the
    stylesheet turns the hint off (offscreen has no such theme, so the rule is checked too)."""
    from PySide6.QtWidgets import QDialogButtonBox, QStyle
    theme.apply_theme(qapp, "light")
    assert "dialogbuttonbox-buttons-have-icons: 0" in qapp.styleSheet()
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                           | QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(box)
    box.show()
    hint = QStyle.StyleHint.SH_DialogButtonBox_ButtonsHaveIcons
    assert box.style().styleHint(hint, None, box) == 0
    for button in box.buttons():
        assert button.icon().isNull()
