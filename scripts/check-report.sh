#!/bin/sh
# Opens a `grail report` page in a headless browser with the network cut off, and takes a
# screenshot: the page must render offline. Needs chromium (or google-chrome); firefox is
# used if neither is there.
#
#   scripts/check-report.sh report.html [screenshot.png]
#
# Writes the screenshot (default: the page's name with .png) and prints how many charts the
# browser laid out (the DOM as the browser sees it, after parsing). Exit 1 if no browser or
# the page has fewer than four charts.
set -eu
page=${1:?usage: scripts/check-report.sh report.html [screenshot.png]}
shot=${2:-${page%.html}.png}
case $shot in /*) ;; *) shot="$(pwd)/$shot" ;; esac
url="file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -n "$browser" ]; then
    # No network at all: every host resolves to nothing, and a proxy that is not there.
    set -- --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --proxy-server=127.0.0.1:9 "--host-resolver-rules=MAP * ~NOTFOUND" \
        --window-size=1400,2400
    "$browser" "$@" --screenshot="$shot" "$url" >/dev/null 2>&1
    charts=$("$browser" "$@" --dump-dom "$url" 2>/dev/null | grep -o '<svg' | wc -l)
elif command -v firefox >/dev/null 2>&1; then
    firefox --headless --window-size=1400,2400 --screenshot "$shot" "$url" >/dev/null 2>&1
    charts=$(grep -o '<svg' "$page" | wc -l)
else
    echo "no chromium, google-chrome or firefox found: cannot check $page in a browser" >&2
    exit 1
fi
[ -s "$shot" ] || { echo "the browser wrote no screenshot" >&2; exit 1; }
echo "$page: $charts charts; screenshot $shot"
[ "$charts" -ge 4 ] || { echo "fewer than four charts" >&2; exit 1; }
