#!/usr/bin/env bash
# Wrap the PyInstaller bundle (packaging/dist/ollm-desktop, from build-bundle.sh) into a .deb:
#   /opt/ollm-desktop/                       the bundle
#   /usr/bin/ollm-desktop                    symlink to the bundle's executable
#   /usr/share/applications/<APP_ID>.desktop, /usr/share/metainfo/<APP_ID>.metainfo.xml
#   /usr/share/icons/hicolor/*/apps/<APP_ID>.{png,svg}
# Output: packaging/dist/ollm-desktop_<version>_<arch>.deb. BUILD_BUNDLE=1 builds the bundle first.
# DEB_COMPRESSION=xz|gzip|zstd and DEB_LEVEL choose the compression (xz 6 by default: about
# 55 MB but 90 s on 2 cores; CI uses gzip: 75 MB in 10 s).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
cd "$ROOT"

APP_ID="io.github.ollm_desktop.OllmDesktop"
PKG="ollm-desktop"
VERSION="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' ollm_desktop/__init__.py)"
ARCH="$(dpkg --print-architecture)"
BUNDLE="$HERE/dist/ollm-desktop"
[[ -n "$VERSION" ]] || { echo "build-deb: no __version__ in ollm_desktop/__init__.py" >&2; exit 1; }

if [[ "${BUILD_BUNDLE:-0}" == 1 || ! -x "$BUNDLE/ollm-desktop" ]]; then
    bash "$HERE/build-bundle.sh"
fi

STAGE="$HERE/build/deb/${PKG}_${VERSION}_${ARCH}"
rm -rf "$STAGE"
mkdir -p "$STAGE/DEBIAN" "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
    "$STAGE/usr/share/metainfo" "$STAGE/usr/share/doc/$PKG"
cp -a "$BUNDLE" "$STAGE/opt/$PKG"
ln -s "/opt/$PKG/ollm-desktop" "$STAGE/usr/bin/ollm-desktop"
install -m 0644 "resources/$APP_ID.desktop" "$STAGE/usr/share/applications/$APP_ID.desktop"
install -m 0644 "resources/$APP_ID.metainfo.xml" "$STAGE/usr/share/metainfo/$APP_ID.metainfo.xml"
for dir in resources/icons/hicolor/*/apps; do
    size="$(basename "$(dirname "$dir")")"
    mkdir -p "$STAGE/usr/share/icons/hicolor/$size/apps"
    install -m 0644 "$dir"/"$APP_ID".* "$STAGE/usr/share/icons/hicolor/$size/apps/"
done
cat > "$STAGE/usr/share/doc/$PKG/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ollm-desktop

Files: *
Copyright: ollm-desktop developers
License: MIT

Files: opt/ollm-desktop/_internal/*
Comment: Python, Qt (PySide6, LGPL-3.0) and the Python libraries the app uses,
 each under its own licence as shipped in its folder.
COPYRIGHT

# System libraries the bundle loads from the host: Qt's xcb/EGL/GL stack is not bundled,
# and the xcb helpers Qt's platform plugin needs may be missing on the build machine.
depends=(libc6 libegl1 libgl1 libglx0 libdrm2 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1
    libfreetype6 libdbus-1-3 libglib2.0-0 libx11-6 libx11-xcb1 libxcb1 libxcb-cursor0
    libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0
    libxcb-randr0 libxcb-render0 libxcb-shm0 libxcb-sync1 libxcb-xfixes0 libxcb-xkb1
    libxcb-xinerama0 libxcb-util1 libwayland-client0 libwayland-cursor0 libwayland-egl1)
# Add whatever else the bundle resolves outside itself on this machine (ldd + dpkg -S).
mapfile -t sofiles < <(find "$BUNDLE" -type f \( -name '*.so*' -o -name ollm-desktop \))
libpath="$BUNDLE/_internal:$BUNDLE/_internal/PySide6/Qt/lib"
while read -r lib; do
    owner="$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | head -n1 | cut -d: -f1)" || true
    [[ -n "$owner" ]] && depends+=("$owner")
done < <(for so in "${sofiles[@]}"; do LD_LIBRARY_PATH="$libpath" ldd "$so" 2>/dev/null; done \
    | awk '/=>/ && $3 ~ /^\// {print $3}' | grep -v "^$BUNDLE" | sort -u)
DEPENDS="$(printf '%s\n' "${depends[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')"

cat > "$STAGE/DEBIAN/control" <<CONTROL
Package: $PKG
Version: $VERSION
Architecture: $ARCH
Maintainer: ollm-desktop developers <dev@ollm-desktop.invalid>
Installed-Size: $(du -sk "$STAGE" --exclude=DEBIAN | cut -f1)
Depends: $DEPENDS
Suggests: ollama
Section: net
Priority: optional
Description: local desktop chat for Ollama that never loses a message
 ollm-desktop is a desktop chat for models served by a local Ollama. Its
 context engine keeps long conversations inside the model's context window
 by summarising older turns, while every original message stays stored.
 .
 This package ships a self-contained build (Python and Qt included) in
 /opt/ollm-desktop.
CONTROL

for script in postinst postrm; do
    cat > "$STAGE/DEBIAN/$script" <<'SCRIPT'
#!/bin/sh
# Refresh the menu and icon caches (the triggers of desktop-file-utils and
# hicolor-icon-theme do this too when those packages are installed).
set -e
case "$1" in
    configure|remove|purge|abort-install|abort-upgrade)
        if command -v update-desktop-database >/dev/null 2>&1; then
            update-desktop-database -q /usr/share/applications || true
        fi
        if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -d /usr/share/icons/hicolor ]; then
            gtk-update-icon-cache -q -t -f /usr/share/icons/hicolor || true
        fi
        ;;
esac
exit 0
SCRIPT
    chmod 0755 "$STAGE/DEBIAN/$script"
done
chmod 0644 "$STAGE/DEBIAN/control"
find "$STAGE" -type d -exec chmod 0755 {} +

mkdir -p "$HERE/dist"
OUT="$HERE/dist/${PKG}_${VERSION}_${ARCH}.deb"
rm -f "$OUT"
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" -z"${DEB_LEVEL:-6}" --build "$STAGE" "$OUT" >/dev/null
echo "build-deb: $OUT ($(du -h "$OUT" | cut -f1))"
