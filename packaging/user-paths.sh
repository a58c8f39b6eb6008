# shellcheck shell=bash
# Where the per-user install lives; sourced by install-user.sh and uninstall-user.sh so both
# always agree on what is theirs.
APP_ID="io.github.ollm_desktop.OllmDesktop"
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
BIN_HOME="${XDG_BIN_HOME:-$HOME/.local/bin}"
APP_DIR="$DATA_HOME/ollm-desktop"
VENV="$APP_DIR/venv"
MANIFEST="$APP_DIR/install-manifest.txt"
APPS_DIR="$DATA_HOME/applications"
ICONS_DIR="$DATA_HOME/icons/hicolor"
LAUNCHER="$BIN_HOME/ollm-desktop"
