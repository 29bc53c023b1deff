#!/bin/sh
# Does the HTML report's flame graph render in headless Chromium? WITH is a
# run's page, WITHOUT the same run's page without stacks. Chromium builds
# the DOM of WITH (offline): each NAME must be a frame in it (a <g class="fl">
# with data-n="NAME"); then both pages are painted and the flame palette's
# pixels counted (tests/flame_check.py): WITH must have MIN more.
#
# Usage: tests/flame_check.sh WITH.html WITHOUT.html MIN NAME...
# Exit: 0 rendered, 1 a check failed, 77 no chromium.
browser=${CHROMIUM:-}
[ -n "$browser" ] || browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] || ! command -v "$browser" >/dev/null; then
	echo "flame_check: chromium is not installed (apt-get install chromium)" >&2
	exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
with=$(realpath "$1") without=$(realpath "$2") min=$3
shift 3

chrome() {
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --host-resolver-rules='MAP * ~NOTFOUND' --hide-scrollbars \
		--user-data-dir="$work/profile" "$@"
}

chrome --dump-dom "file://$with" >"$work/dom" 2>/dev/null || { echo "flame_check: chromium failed" >&2; exit 1; }
for name in "$@"; do
	grep -q "<g class=\"fl\"[^>]*data-n=\"$name\"" "$work/dom" ||
		{ echo "flame_check: no frame \"$name\" in the DOM" >&2; exit 1; }
done
chrome --window-size=1200,5000 --screenshot="$work/with.png" "file://$with" >/dev/null 2>&1
chrome --window-size=1200,5000 --screenshot="$work/without.png" "file://$without" >/dev/null 2>&1
cd "$here" && python3 flame_check.py "$work/with.png" "$work/without.png" "$min"
