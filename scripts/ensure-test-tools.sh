#!/usr/bin/env bash
# Makes sure the Debian packages the tests use are installed, so that
# `npm install && npm test` works on a fresh Debian machine: Chromium's
# headless shell for the browser tests (they never download a browser;
# scripts/chromium.ts), Java for the Nu HTML
# Checker (npm vnu-jar ships the checker, not a Java runtime), PostgreSQL for
# the integration tests on a real server, nginx for the test that runs the
# deployment guide's configuration, and the fonts a server falls back
# to (the share-image tests prove the site's own typeface is drawn, not
# these). Installs what is missing with apt-get when run as root; otherwise
# says what is missing (Chromium and Java are required, the rest optional).
set -euo pipefail
missing=()
chromium="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
[ -x "$chromium" ] || missing+=(chromium-headless-shell)
command -v java >/dev/null || missing+=(default-jre-headless)
compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null || missing+=(postgresql)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || missing+=(nginx)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || missing+=(fonts-dejavu-core)
[ -f /usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf ] || missing+=(fonts-liberation)
if ((${#missing[@]} == 0)); then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's ${missing[*]} for the tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "Missing for the tests: ${missing[*]}. Install them (sudo apt-get install -y ${missing[*]})." >&2
[ -x "$chromium" ] && command -v java >/dev/null || exit 1
