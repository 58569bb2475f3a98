#!/usr/bin/env bash
# Creates .venv with the package and the extras named by LUDOTHEQUE_EXTRAS (default dev,rl,cluster: what `make test`
# needs; `make run` asks for none), on a fresh machine with nothing done by hand.
# Re-running is cheap: it reinstalls only when pyproject.toml changed since the last install, when extras
# not installed yet are asked for, when a C++ source changed, or when the package's modules were added or moved.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${LUDOTHEQUE_EXTRAS-dev,rl,cluster}"
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
  for done in "$stamp" .venv/.installed-dev-rl-cluster; do
    if [ -f "$done" ] && [ ! pyproject.toml -nt "$done" ]; then return 0; fi
  done
  return 1
}

# The native core's sources: a change rebuilds the extension (build/ keeps the objects, so only what changed).
native_sources() {
  find CMakeLists.txt src/native src/ludotheque/games -path '*/cpp/*' -o -name '*.hpp' -o -name '*.cpp' \
    -o -name CMakeLists.txt 2>/dev/null
}
native_stale() {
  [ "${LUDOTHEQUE_NATIVE:-on}" = off ] && return 1
  [ -f .venv/.native-built ] || return 0
  [ -n "$(find $(native_sources) -newer .venv/.native-built 2>/dev/null | head -1)" ]
}

install_package() {
  local target=.
  [ -n "$extras" ] && target=".[${extras}]"
  # the build backend and nanobind, pinned in pyproject.toml's build-system, installed once into .venv; the
  # installs below build without isolation, so the dependencies published only as source (http-ece) need wheel too
  .venv/bin/python - <<'PY' | xargs .venv/bin/python -m pip install --quiet --disable-pip-version-check
import tomllib
print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]), "wheel==0.45.1")
PY
  if [ "${LUDOTHEQUE_NATIVE:-on}" != off ] &&
     .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-build-isolation -e "$target"; then
    touch .venv/.native-built
    return 0
  fi
  if [ "${LUDOTHEQUE_NATIVE:-on}" != off ]; then
    echo "bootstrap: the native core did not build; installing without it (every game runs on its Python engine)" >&2
  fi
  rm -f .venv/.native-built
  LUDOTHEQUE_NATIVE=off .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-build-isolation \
    -e "$target"
}

# The editable install maps each module of the package to its file: a module added, moved or removed since the
# install (a module that became a package) needs the map made again.
module_list() {
  find src/ludotheque -name '*.py' | sort | md5sum | cut -d' ' -f1
}
modules_moved() {
  [ "$(cat .venv/.modules 2>/dev/null)" != "$(module_list)" ]
}

if ! installed; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  install_package
  touch "$stamp"
elif native_stale || modules_moved; then
  install_package
fi
module_list > .venv/.modules
