#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed: `chromium-headless-shell` for the
# browser tests and screenshots (or the binary CHROMIUM_PATH names), or with
# `desktop`, the desktop `chromium` that `npm run bench:web` audits with
# (scripts/chromium.ts). Only Debian's packages, never a downloaded browser;
# installs them with apt-get when run as root.
set -euo pipefail
if [ "${1:-}" = "desktop" ]; then
  binary=/usr/bin/chromium package=chromium
else
  binary="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}" package=chromium-headless-shell
fi
if [ -x "$binary" ]; then exit 0; fi
if [ "$binary" = "/usr/bin/$package" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Chromium is missing: installing Debian's $package package…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
  exit 0
fi
echo "Chromium not found at $binary. Install it (sudo apt-get install -y $package) or set CHROMIUM_PATH." >&2
exit 1
