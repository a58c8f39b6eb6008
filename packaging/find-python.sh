# shellcheck shell=bash
# Sourced by the packaging scripts and make-venv.sh: find_python prints a Python >= 3.12 that
# really runs.
#
# Why the care: on some machines `python3.12` is a pyenv shim that exists on PATH but fails
# ("command not found" from pyenv), so every candidate is executed before it is trusted.
# Order: $PYTHON, python3.13, python3.12, python3 on PATH, then pyenv's own version folders,
# then uv's managed Pythons (`uv python find`, then its folder); a broken $PYTHON gives a
# warning and the search goes on. PySide6 on 3.11 aborts after a few hundred signal emits,
# hence the 3.12 floor; `ensurepip` is checked too because Debian's python3 without the
# python3-venv package imports `venv` but cannot make one.

_python_ok() {
    "$1" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 12) else 1)' \
        >/dev/null 2>&1
}

_python_candidates() {
    local candidate root uv_python
    printf '%s\n' python3.14 python3.13 python3.12 python3
    for root in "${PYENV_ROOT:-$HOME/.pyenv}" "$HOME/.pyenv"; do
        for candidate in "$root"/versions/3.1[2-9]*/bin/python3 "$root"/versions/3.[2-9][0-9]*/bin/python3; do
            [[ -x "$candidate" ]] && printf '%s\n' "$candidate"
        done
    done
    if command -v uv >/dev/null 2>&1; then
        uv_python="$(uv python find '>=3.12' 2>/dev/null)" && printf '%s\n' "$uv_python"
    fi
    for root in "${UV_PYTHON_INSTALL_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/uv/python}"; do
        for candidate in "$root"/cpython-3.1[2-9]*/bin/python3 "$root"/cpython-3.[2-9][0-9]*/bin/python3; do
            [[ -x "$candidate" ]] && printf '%s\n' "$candidate"
        done
    done
}

find_python() {
    local candidate resolved
    if [[ -n "${PYTHON:-}" ]]; then
        if _python_ok "$PYTHON"; then
            command -v "$PYTHON" || printf '%s\n' "$PYTHON"
            return 0
        fi
        # A pyenv shim may be handed in as PYTHON; say so, then look further.
        echo "warning: PYTHON=$PYTHON is not a working Python 3.12 or newer; searching" >&2
    fi
    while IFS= read -r candidate; do
        resolved="$(command -v "$candidate" 2>/dev/null)" || continue
        if _python_ok "$resolved"; then
            printf '%s\n' "$resolved"
            return 0
        fi
    done < <(_python_candidates)
    cat >&2 <<'MSG'
error: ollm-desktop needs Python 3.12 or newer with its venv module; none was found
       (looked for python3.14, python3.13, python3.12 and python3 on PATH, pyenv's and uv's).
       Install one, then paste the command again:
         Debian 13 / Ubuntu 24.04:  sudo apt install python3 python3-venv
         Debian 12 / Ubuntu 22.04:  uv python install 3.12   (or: pyenv install 3.12)
         Fedora:                    sudo dnf install python3.12
         macOS / Windows:           https://www.python.org/downloads/
       Or point PYTHON=/path/to/python3.12 at one you have.
MSG
    return 1
}

# Run rather than sourced (`bash packaging/find-python.sh`): print it, e.g. for
# `pipx install --python "$(bash packaging/find-python.sh)" .`
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    find_python
fi
