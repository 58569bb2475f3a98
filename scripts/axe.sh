#!/usr/bin/env bash
# Installs axe-core, the accessibility checker the browser tests run inside each page, from the npm registry when it
# is missing, at the version pinned here, into .venv/axe (a test tool: nothing of it is committed or served).
# Prints the path of axe.min.js.
set -eu
cd "$(dirname "$0")/.."
version=4.14.1
prefix=.venv/axe
script="$prefix/node_modules/axe-core/axe.min.js"
stamp="$prefix/.installed-$version"
if [ -f "$stamp" ] && [ -f "$script" ]; then echo "$PWD/$script"; exit 0; fi
if ! command -v npm >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  echo "axe.sh: installing npm from Debian's packages" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
fi
command -v npm >/dev/null 2>&1 || { echo "axe.sh: npm is needed to install axe-core" >&2; exit 1; }
mkdir -p "$prefix"
npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts --loglevel=error \
  "axe-core@$version" >&2
[ -f "$script" ] || { echo "axe.sh: axe-core $version did not install" >&2; exit 1; }
rm -f "$prefix"/.installed-*
touch "$stamp"
echo "$PWD/$script"
