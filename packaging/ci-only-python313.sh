#!/usr/bin/env bash
# CI (issue 32): the README's launch command, as pasted, on a machine where the only Python is
# `python3.13` on PATH. A copy of the tree is set up under a PATH holding every tool of this
# machine except its Pythons (python*, pip*, pyenv, uv), plus python3.13, and a HOME without
# pyenv's or uv's folders; the command runs there with --self-test appended.
#
# Which 3.13: Debian's (python3.13 and python3.13-venv: Debian 13 has them, Debian 12 has not),
# else pyenv's, if this machine has one; with none it says so and stops without failing CI.
# Usage: bash packaging/ci-only-python313.sh '<the README launch command>'
set -euo pipefail
command_line="$1"
cd "$(dirname "$0")/.."

apt-get install -y -qq --no-install-recommends python3.13 python3.13-venv >/dev/null 2>&1 || true
python313=""
for candidate in /usr/bin/python3.13 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3.13; do
    if [[ -x "$candidate" ]] && "$candidate" -c 'import venv, ensurepip' >/dev/null 2>&1; then
        python313="$candidate"
        break
    fi
done
if [[ -z "$python313" ]]; then
    echo "skipped: no Python 3.13 with venv on this machine (apt has none, pyenv has none)"
    exit 0
fi

machine="$(mktemp -d)"
trap 'rm -rf "$machine"' EXIT
mkdir "$machine/bin" "$machine/home" "$machine/src"
for dir in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
    for tool in "$dir"/*; do
        name="${tool##*/}"
        case "$name" in python*|pip*|pydoc*|idle*|2to3*|pyenv|uv|uvx) continue ;; esac
        [[ -e "$machine/bin/$name" || ! -x "$tool" ]] || ln -s "$tool" "$machine/bin/$name"
    done
done
ln -s "$python313" "$machine/bin/python3.13"
tar --exclude=./.venv --exclude=./.git -cf - . | tar -xf - -C "$machine/src"

echo "python3.13 is $python313; the PATH has no other Python:"
env -i PATH="$machine/bin" bash -c 'for p in python3.14 python3.12 python3 python; do
    command -v "$p" >/dev/null && { echo "  unexpected: $p on PATH"; exit 1; }; done; echo "  ok"'
echo "\$ $command_line --self-test"
cd "$machine/src"
env -i PATH="$machine/bin" HOME="$machine/home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen \
    PIP_CACHE_DIR="${PIP_CACHE_DIR:-$HOME/.cache/pip}" PIP_DISABLE_PIP_VERSION_CHECK=1 \
    bash -c "$command_line --self-test"
