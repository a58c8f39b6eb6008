#!/usr/bin/env bash
# Install ollm-desktop for the current user from this source checkout (no root needed):
#   venv      ${XDG_DATA_HOME:-~/.local/share}/ollm-desktop/venv   (the app, installed from here)
#   launcher  ${XDG_BIN_HOME:-~/.local/bin}/ollm-desktop             (symlink into the venv)
#   menu      ${XDG_DATA_HOME:-~/.local/share}/applications/io.github.ollm_desktop.OllmDesktop.desktop
#   icons     ${XDG_DATA_HOME:-~/.local/share}/icons/hicolor/*/apps/io.github.ollm_desktop.OllmDesktop.*
# Re-running upgrades in place. packaging/uninstall-user.sh removes exactly these (listed in
# ollm-desktop/install-manifest.txt); chats, settings and logs are never touched by either.
# PYTHON=/path/to/python3.12 picks the interpreter (3.12 or newer is required).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
# shellcheck source=packaging/find-python.sh
source "$HERE/find-python.sh"

# shellcheck source=packaging/user-paths.sh
source "$HERE/user-paths.sh"

[[ -f "$ROOT/pyproject.toml" && -d "$ROOT/ollm_desktop" ]] || {
    echo "install-user: run this from an ollm-desktop source checkout ($ROOT)" >&2
    exit 1
}

# 1. The venv: reuse it when its Python still works and is new enough, else recreate it.
if [[ -x "$VENV/bin/python" ]] && _python_ok "$VENV/bin/python"; then
    echo "install-user: upgrading the existing venv $VENV"
else
    py="$(find_python)"
    echo "install-user: creating $VENV with $py ($("$py" --version 2>&1))"
    rm -rf "$VENV"
    mkdir -p "$APP_DIR"
    "$py" -m venv "$VENV"
fi
# Not editable: the install keeps working if the checkout moves or changes. --force-reinstall
# of the app alone (not its dependencies) makes a re-run pick up a changed checkout of the same
# version.
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$ROOT"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall \
    --no-deps "$ROOT"
APP_BIN="$VENV/bin/ollm-desktop"
[[ -x "$APP_BIN" ]] || { echo "install-user: $APP_BIN was not created" >&2; exit 1; }

written=()

# 2. Menu entry with an absolute Exec= (the venv is not on PATH).
exec_path="$APP_BIN"
[[ "$exec_path" == *[[:space:]]* ]] && exec_path="\"$exec_path\""
mkdir -p "$APPS_DIR"
desktop="$APPS_DIR/$APP_ID.desktop"
sed -e "s|^Exec=.*|Exec=$exec_path|" "$ROOT/resources/$APP_ID.desktop" > "$desktop.tmp"
printf 'TryExec=%s\n' "$APP_BIN" >> "$desktop.tmp"
mv "$desktop.tmp" "$desktop"
chmod 0644 "$desktop"
written+=("$desktop")

# 3. Icons into the user's hicolor theme.
for src in "$ROOT"/resources/icons/hicolor/*/apps/"$APP_ID".*; do
    size="$(basename "$(dirname "$(dirname "$src")")")"
    dest="$ICONS_DIR/$size/apps/$(basename "$src")"
    mkdir -p "$(dirname "$dest")"
    install -m 0644 "$src" "$dest"
    written+=("$dest")
done

# 4. Launcher on PATH.
mkdir -p "$BIN_HOME"
if [[ -e "$LAUNCHER" && ! -L "$LAUNCHER" ]]; then
    echo "install-user: warning: $LAUNCHER exists and is not our symlink; left as is" >&2
else
    ln -sfn "$APP_BIN" "$LAUNCHER"
    written+=("$LAUNCHER")
fi

# Keep entries from an earlier install (a file that is no longer written is still ours).
if [[ -f "$MANIFEST" ]]; then
    while IFS= read -r line; do [[ -n "$line" ]] && written+=("$line"); done < "$MANIFEST"
fi
printf '%s\n' "${written[@]}" | sort -u > "$MANIFEST.tmp"
mv "$MANIFEST.tmp" "$MANIFEST"

# 5. Caches, where the tools exist (desktops also rescan by themselves).
# The entry declares no MimeType, so the MIME cache only needs a refresh where one exists.
if command -v update-desktop-database >/dev/null 2>&1 && [[ -f "$APPS_DIR/mimeinfo.cache" ]]; then
    update-desktop-database -q "$APPS_DIR" 2>/dev/null || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [[ -f "$ICONS_DIR/index.theme" ]]; then
    gtk-update-icon-cache -q -t "$ICONS_DIR" 2>/dev/null || true
fi

version="$("$APP_BIN" --version 2>/dev/null || true)"
# --version proves only that Python imports the package. The self-test starts Qt, the
# tokenizer, the window and the snapshot browser (offscreen without a display, in a scratch
# data folder: no chats are touched), so missing Qt system libraries show up now, not as a
# menu entry that silently does nothing.
limit=()
command -v timeout >/dev/null 2>&1 && limit=(timeout 180)
if ! selftest="$(${limit[@]+"${limit[@]}"} "$APP_BIN" --self-test 2>&1)"; then
    printf '%s\n' "$selftest" >&2
    echo "install-user: the installed app failed its self-test (output above). Missing Qt" \
         "system libraries are the usual cause: see README.md, \"System libraries\"." >&2
    exit 1
fi
echo "install-user: self-test passed"
echo "install-user: installed ${version:-ollm-desktop} ($APP_BIN)"
echo "install-user: start it from the application menu or with: ollm-desktop"
case ":$PATH:" in
    *":$BIN_HOME:"*) ;;
    *) echo "install-user: note: $BIN_HOME is not on your PATH" ;;
esac
