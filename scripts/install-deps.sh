#!/usr/bin/env bash
# Installs what gpuport needs and this machine lacks: Debian packages (as root) or Homebrew
# formulae, then the Python packages of scripts/deps/python.txt. Installs nothing that is there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list() { grep -v '^\s*#' "$1" | sed '/^\s*$/d'; }

if [ "$(uname -s)" = Darwin ]; then
    command -v brew >/dev/null || { echo "install-deps: Homebrew is needed: https://brew.sh" >&2; exit 2; }
    missing=()
    for f in $(list "$here/deps/brew.txt"); do
        brew list --formula "$f" >/dev/null 2>&1 || missing+=("$f")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        echo "install-deps: the Homebrew formulae of scripts/deps/brew.txt are installed"
    else
        echo "install-deps: installing with Homebrew: ${missing[*]}"
        brew install "${missing[@]}"
    fi
elif command -v apt-get >/dev/null; then
    missing=()
    for p in $(list "$here/deps/debian.txt"); do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        if [ "$(id -u)" != 0 ]; then
            echo "install-deps: missing Debian packages: ${missing[*]}" >&2
            echo "install-deps: run as root, or: sudo apt-get install ${missing[*]}" >&2
            exit 2
        fi
        echo "install-deps: installing Debian packages: ${missing[*]} (apt-get; minutes on a fresh machine)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "install-deps: the Debian packages of scripts/deps/debian.txt are installed"
    fi
else
    echo "install-deps: neither apt-get nor Homebrew found; install the packages in $here/deps by hand" >&2
fi

# Python packages, for the python3 on PATH. Debian's own python3 is externally managed: use its
# packages there; any other python3 (pyenv, venv, Homebrew) gets them from pip.
py=$(command -v python3 || true)
if [ -n "$py" ]; then
    mods=$(list "$here/deps/python.txt" | tr '\n' ' ')
    if "$py" -c "import $(echo "$mods" | sed 's/ *$//; s/ /, /g')" 2>/dev/null; then
        echo "install-deps: the Python packages ($(echo $mods)) are installed for $py"
    else
        echo "install-deps: installing Python packages for $py: $(echo $mods) (what is there is kept; torch's wheel is large: minutes)"
        if [ "$py" = /usr/bin/python3 ] && command -v apt-get >/dev/null; then
            pkgs=$(for m in $mods; do printf 'python3-%s ' "$m"; done)
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
        else
            "$py" -m pip install --quiet --disable-pip-version-check $mods
        fi
    fi
fi

# Test-only command-line tools from PyPI (Linux; optional: a test that needs one says when it is
# missing). Not for Debian's externally managed python3.
if [ "$(uname -s)" = Linux ] && [ -n "$py" ] && [ "$py" != /usr/bin/python3 ]; then
    for t in $(list "$here/deps/pip-tools.txt"); do
        "$py" -m pip show "$t" >/dev/null 2>&1 && continue
        echo "install-deps: installing the test tool $t from PyPI"
        "$py" -m pip install --quiet --disable-pip-version-check "$t" >/dev/null 2>&1 ||
            echo "install-deps: could not install $t from PyPI (the tests that use it will say so)" >&2
    done
fi
