#!/usr/bin/env bash
# Screenshot a rendered report page with headless Chromium (acceptance check for index.html).
#
# Usage: scripts/screenshot.sh [REPORT_DIR_OR_HTML] [OUT.png] [WIDTHxHEIGHT]
#   REPORT_DIR_OR_HTML  index.html or the directory holding it (default reports/latest)
#   OUT.png             screenshot path (default: screenshot.png next to the page)
#   WIDTHxHEIGHT        window size (default 1400x9000: tall enough for summary, table, graph, plots)
#
# Also writes OUT.console.txt with the browser's console output (--enable-logging=stderr, --v=0);
# the script exits 1 if the page logged a console error ("Uncaught", "ERROR:CONSOLE" or a failed
# network request). The page must be self-contained, so networking is disabled; a request would
# show up as an error. Needs chromium (Debian: apt-get install -y chromium) or $CHROMIUM.
set -euo pipefail

target="${1:-reports/latest}"
[[ -d "$target" ]] && target="$target/index.html"
[[ -f "$target" ]] || { echo "screenshot.sh: no such page: $target" >&2; exit 2; }
page="$(cd "$(dirname "$target")" && pwd)/$(basename "$target")"
out="${2:-$(dirname "$page")/screenshot.png}"
size="${3:-1400x9000}"
browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}"
[[ -n "$browser" ]] || { echo "screenshot.sh: chromium not found (apt-get install -y chromium, or set CHROMIUM)" >&2; exit 2; }

profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
console="${out%.png}.console.txt"

"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-default-apps --disable-extensions --disable-sync \
  --no-first-run --no-default-browser-check --hide-scrollbars --mute-audio \
  --user-data-dir="$profile" --proxy-server='127.0.0.1:9' --proxy-bypass-list='<-loopback>' \
  --enable-logging=stderr --v=0 \
  --window-size="${size/x/,}" --virtual-time-budget=3000 \
  --screenshot="$out" "file://$page" 2>"$console" >/dev/null || true

[[ -s "$out" ]] || { echo "screenshot.sh: no screenshot written; see $console" >&2; exit 1; }
echo "screenshot: $out"
if grep -E "CONSOLE|Uncaught|net::ERR_" "$console" | grep -viE "dbus|gpu|viz|sandbox|crashpad|fontconfig" >/dev/null; then
  echo "screenshot.sh: console errors:" >&2
  grep -E "CONSOLE|Uncaught|net::ERR_" "$console" >&2
  exit 1
fi
echo "console: no errors ($console)"
