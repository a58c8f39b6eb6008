#!/usr/bin/env bash
# Remove what packaging/install-user.sh installed: the venv, the menu entry, the icons and the
# launcher symlink. Chats, settings and logs are kept: they live beside the venv
# (${XDG_DATA_HOME:-~/.local/share}/ollm-desktop), in ~/.config/ollm-desktop and
# ~/.local/state/ollm-desktop; delete those folders yourself to erase your data.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=packaging/user-paths.sh
source "$HERE/user-paths.sh"

# What install-user.sh wrote, from its manifest, plus the fixed names in case it is lost.
targets=("$APPS_DIR/$APP_ID.desktop")
for icon in "$ICONS_DIR"/*/apps/"$APP_ID".png "$ICONS_DIR"/*/apps/"$APP_ID".svg; do
    [[ -e "$icon" ]] && targets+=("$icon")
done
if [[ -f "$MANIFEST" ]]; then
    while IFS= read -r line; do [[ -n "$line" ]] && targets+=("$line"); done < "$MANIFEST"
fi

removed=0
for path in "${targets[@]}"; do
    if [[ -f "$path" && ! -L "$path" ]]; then
        rm -f -- "$path" && removed=$((removed + 1))
    fi
done
# The launcher only if it is our symlink into the venv.
if [[ -L "$LAUNCHER" && "$(readlink "$LAUNCHER")" == "$VENV/"* ]]; then
    rm -f -- "$LAUNCHER"
    removed=$((removed + 1))
fi
if [[ -d "$VENV" ]]; then
    rm -rf -- "$VENV"
    removed=$((removed + 1))
fi
rm -f -- "$MANIFEST"

# Remove folders this left empty (only ours: icon size folders, and the app folder when the
# user has no data in it). rmdir never deletes a folder that still has files.
for dir in "$ICONS_DIR"/*/apps; do
    [[ -d "$dir" ]] && rmdir --ignore-fail-on-non-empty "$dir" "$(dirname "$dir")"
done
[[ -d "$APP_DIR" ]] && rmdir --ignore-fail-on-non-empty "$APP_DIR"

if command -v update-desktop-database >/dev/null 2>&1 && [[ -f "$APPS_DIR/mimeinfo.cache" ]]; then
    update-desktop-database -q "$APPS_DIR" 2>/dev/null || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [[ -f "$ICONS_DIR/index.theme" ]]; then
    gtk-update-icon-cache -q -t "$ICONS_DIR" 2>/dev/null || true
fi
echo "uninstall-user: removed $removed item(s); your chats and settings were kept"
if [[ -d "$APP_DIR" ]]; then
    echo "uninstall-user: data left in $APP_DIR"
fi
