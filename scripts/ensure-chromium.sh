#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the browser tests (they never
# download a browser of their own). Installs it with apt-get when run as root.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Chromium is missing: installing Debian's chromium package…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "Chromium not found at $chromium. Install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
exit 1
