#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing (Playwright drives it; it downloads no
# browser of its own).  Prints the browser's path.
set -eu
for candidate in /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -x "$candidate" ]; then echo "$candidate"; exit 0; fi
done
if command -v apt-get >/dev/null 2>&1; then
  echo "browser.sh: installing chromium from Debian's packages" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
[ -x /usr/bin/chromium ] || { echo "browser.sh: no Chromium could be installed" >&2; exit 1; }
echo /usr/bin/chromium
