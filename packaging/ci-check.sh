#!/usr/bin/env bash
# Packaging check for CI (runs after the unit tests; needs root for apt):
#   1. desktop entry and AppStream metainfo pass their validators,
#   2. the PyInstaller bundle and the .deb build,
#   3. the .deb installs with apt, /usr/bin/ollm-desktop --self-test passes, apt removes it,
#   4. the per-user install (twice: install, then upgrade in place) in a temporary HOME passes
#      --self-test, and the uninstall leaves nothing behind.
# Prints the time of each step. Usage: PYTHON=/path/to/python3.12 bash packaging/ci-check.sh
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
APP_ID="io.github.ollm_desktop.OllmDesktop"
VERSION="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' ollm_desktop/__init__.py)"

declare -a TIMINGS=()
START_ALL=$(date +%s.%N)
step_start=0
begin() { step_name="$1"; step_start=$(date +%s.%N); echo "== ci-check: $1"; }
end() {
    local took
    took=$(awk -v a="$step_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    TIMINGS+=("$(printf '%-34s %7ss' "$step_name" "$took")")
}
fail() { echo "ci-check: FAILED: $*" >&2; exit 1; }

TMP_HOME=""
DEB_INSTALLED_BY_US=0
cleanup() {
    if [[ "$DEB_INSTALLED_BY_US" == 1 ]] && dpkg -s ollm-desktop >/dev/null 2>&1; then
        apt-get remove -y -qq ollm-desktop >/dev/null 2>&1 || true
    fi
    [[ -n "$TMP_HOME" && -d "$TMP_HOME" ]] && rm -rf -- "$TMP_HOME"
    return 0
}
trap cleanup EXIT

apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/tmp/ci-check-apt.log 2>&1 || {
        apt-get update -qq >/dev/null 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/tmp/ci-check-apt.log 2>&1
    } || { cat /tmp/ci-check-apt.log >&2; return 1; }
}

# 0. Tools (the project installs what it needs: CI machines may be fresh).
begin "tools"
missing=()
command -v desktop-file-validate >/dev/null || missing+=(desktop-file-utils)
command -v appstreamcli >/dev/null || missing+=(appstream)
command -v objdump >/dev/null || missing+=(binutils)
command -v dpkg-deb >/dev/null || missing+=(dpkg-dev)
command -v xdg-desktop-menu >/dev/null || missing+=(xdg-utils)
if ((${#missing[@]})); then
    [[ "$(id -u)" == 0 ]] || fail "missing tools (${missing[*]}) and not root to install them"
    apt_install "${missing[@]}" || fail "apt-get install ${missing[*]}"
fi
end

# 1. Metadata.
begin "validate desktop + metainfo"
desktop-file-validate "resources/$APP_ID.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "resources/$APP_ID.metainfo.xml" || fail "appstreamcli validate"
end

# 2. Bundle and .deb.
begin "build bundle (PyInstaller)"
bash packaging/build-bundle.sh || fail "build-bundle.sh"
end
begin "build .deb"
DEB_COMPRESSION=gzip DEB_LEVEL=6 bash packaging/build-deb.sh || fail "build-deb.sh"
DEB="$ROOT/packaging/dist/ollm-desktop_${VERSION}_$(dpkg --print-architecture).deb"
[[ -f "$DEB" ]] || fail "no $DEB"
end

# 3. System install from the .deb.
if [[ "$(id -u)" == 0 ]]; then
    begin "apt install .deb"
    DEB_INSTALLED_BY_US=1
    apt_install "$DEB" || fail "apt-get install $DEB"
    [[ -x /usr/bin/ollm-desktop ]] || fail "/usr/bin/ollm-desktop missing after install"
    desktop-file-validate "/usr/share/applications/$APP_ID.desktop" || fail "installed .desktop"
    [[ -f "/usr/share/icons/hicolor/256x256/apps/$APP_ID.png" ]] || fail "installed icon missing"
    end
    begin "self-test (/usr/bin)"
    out="$(cd / && QT_QPA_PLATFORM=offscreen timeout 180 /usr/bin/ollm-desktop --self-test 2>&1)" \
        || { echo "$out" >&2; fail "/usr/bin/ollm-desktop --self-test exited non-zero"; }
    echo "$out"
    grep -q "self-test: ok" <<<"$out" || fail "no 'self-test: ok' from /usr/bin/ollm-desktop"
    end
    begin "apt remove"
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq ollm-desktop >/dev/null \
        || fail "apt-get remove"
    DEB_INSTALLED_BY_US=0
    [[ ! -e /usr/bin/ollm-desktop && ! -e /opt/ollm-desktop ]] || fail "files left after remove"
    [[ ! -e "/usr/share/applications/$APP_ID.desktop" ]] || fail "menu entry left after remove"
    dpkg --purge ollm-desktop >/dev/null  # drop dpkg's "config-files" record too
    end
else
    echo "ci-check: not root: skipping the .deb install test"
fi

# 4. Per-user install in a throwaway HOME.
TMP_HOME="$(mktemp -d /tmp/ollm-ci-home.XXXXXX)"
[[ -d "$TMP_HOME" && "$TMP_HOME" == /tmp/ollm-ci-home.* ]] || fail "mktemp"
user_env=(env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u XDG_STATE_HOME -u XDG_BIN_HOME
    -u XDG_CACHE_HOME "HOME=$TMP_HOME" "PIP_CACHE_DIR=${PIP_CACHE_DIR:-$HOME/.cache/pip}")
begin "per-user install"
"${user_env[@]}" bash packaging/install-user.sh || fail "install-user.sh"
end
begin "per-user install again (upgrade)"
"${user_env[@]}" bash packaging/install-user.sh || fail "install-user.sh (re-run)"
end
begin "self-test (per-user)"
launcher="$TMP_HOME/.local/bin/ollm-desktop"
[[ -L "$launcher" ]] || fail "no launcher symlink $launcher"
desktop-file-validate "$TMP_HOME/.local/share/applications/$APP_ID.desktop" \
    || fail "per-user .desktop"
grep -q "^Exec=$TMP_HOME/.local/share/ollm-desktop/venv/bin/ollm-desktop$" \
    "$TMP_HOME/.local/share/applications/$APP_ID.desktop" || fail "per-user Exec= path"
out="$(cd / && "${user_env[@]}" QT_QPA_PLATFORM=offscreen timeout 180 "$launcher" --self-test 2>&1)" \
    || { echo "$out" >&2; fail "per-user ollm-desktop --self-test exited non-zero"; }
echo "$out"
grep -q "self-test: ok" <<<"$out" || fail "no 'self-test: ok' from the per-user install"
end
begin "per-user uninstall"
"${user_env[@]}" bash packaging/uninstall-user.sh || fail "uninstall-user.sh"
left="$(find "$TMP_HOME" \( -type f -o -type l \) \
    \( -path "$TMP_HOME/.local/*" -o -iname '*ollm*' -o -name "$APP_ID*" \) -print)"
[[ -z "$left" ]] || { echo "$left" >&2; fail "the per-user uninstall left files behind"; }
end

total=$(awk -v a="$START_ALL" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "== ci-check timings"
printf '  %s\n' "${TIMINGS[@]}"
printf '  %-34s %7ss\n' "total" "$total"
echo "ci-check: packaging ok"
