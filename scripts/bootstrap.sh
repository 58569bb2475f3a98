#!/usr/bin/env bash
# Creates .venv with the package and the extras named by LUDOTHEQUE_EXTRAS (default dev,rl: what `make test`
# needs; `make run` asks for none), on a fresh machine with nothing done by hand.
# Re-running is cheap: it reinstalls only when pyproject.toml changed since the last install, or when extras
# not installed yet are asked for.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${LUDOTHEQUE_EXTRAS-dev,rl}"
stamp=".venv/.installed-${extras//,/-}"

find_python() {
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  return 1
}

if [ ! -x .venv/bin/python ]; then
  python="$(find_python || true)"
  if [ -z "$python" ] || ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "bootstrap: installing Python 3 with venv from the system packages" >&2
    if command -v apt-get >/dev/null 2>&1; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip >/dev/null
    fi
    python="$(find_python)" || { echo "bootstrap: Python >= 3.11 is required" >&2; exit 1; }
  fi
  "$python" -m venv .venv
fi

installed() {
  # an up-to-date install of these extras, or of every extra (which holds them)
  for done in "$stamp" .venv/.installed-dev-rl; do
    if [ -f "$done" ] && [ ! pyproject.toml -nt "$done" ]; then return 0; fi
  done
  return 1
}

if ! installed; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  if [ -n "$extras" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[${extras}]"
  else
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
  fi
  touch "$stamp"
fi
