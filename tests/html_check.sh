#!/bin/sh
# Open fctrace's HTML reports in headless Chromium, offline, and check that
# they render: no console errors, no reference to anything outside the page,
# the charts are in the DOM Chromium built (not just in the file), and a
# screenshot of the page is not blank (tests/png_check.py), and no name
# from the data became an element, an event handler or a script
# (tests/dom_check.py).
#
# Usage: tests/html_check.sh FILE[:CHARTS]...
#   CHARTS  how many <svg class="chart"> the page must have at least (default 1)
# Exit: 0 all rendered, 1 a check failed, 77 no chromium ($CHROMIUM to choose one).
browser=${CHROMIUM:-}
[ -n "$browser" ] || browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] || ! command -v "$browser" >/dev/null; then
	echo "html_check: chromium is not installed (apt-get install chromium)" >&2
	exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
status=0

fail() {
	echo "html_check: $1: $2" >&2
	status=1 bad=1
}

# One Chromium for both: the DOM as Chromium built it (stdout) and the page
# as it paints it, 1200 px wide (the screenshot); the page has no script,
# so the window size changes no part of the DOM.
# Every host name fails to resolve: a page that tries to fetch anything
# logs net::ERR_NAME_NOT_RESOLVED, which the checks below catch.
render() {
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --host-resolver-rules='MAP * ~NOTFOUND' --hide-scrollbars \
		--user-data-dir="$work/profile" --window-size=1200,1600 \
		--enable-logging=stderr --v=0 \
		--screenshot="$work/shot.png" --dump-dom "file://$1" >"$work/dom" 2>"$work/log"
}

count() {
	grep -o "$1" "$work/dom" | wc -l | tr -d ' '
}

check() {
	file=$1 want=$2 bad=0
	case $file in /*) ;; *) file=$(pwd)/$file ;; esac
	[ -r "$file" ] || { fail "$file" "cannot read it"; return; }
	rm -f "$work/shot.png"
	render "$file" || { fail "$file" "chromium exited with $? (log: $(tail -n 3 "$work/log"))"; return; }
	if grep -E 'Uncaught|ERROR:CONSOLE|CONSOLE.*[Ee]rror|net::ERR_' "$work/log" >"$work/bad"; then
		fail "$file" "errors while rendering: $(head -n 3 "$work/bad")"
	fi
	# nothing may be fetched when the page is viewed (the log shows no
	# failed loads in headless mode, so look at what the DOM refers to)
	if grep -Eio '(src|href|srcset|poster|action|data)="[^#"][^"]*"|url\([^)]*\)|@import[^;]*' \
		"$work/dom" >"$work/refs"; then
		fail "$file" "refers to other resources: $(head -n 3 "$work/refs" | tr '\n' ' ')"
	fi
	charts=$(count '<svg class="chart"')
	shapes=$(( $(count '<rect ') + $(count '<path ') + $(count '<polyline ') ))
	[ "$charts" -ge "$want" ] || fail "$file" "$charts charts in the DOM, want at least $want"
	[ "$shapes" -gt 0 ] || fail "$file" "no rect, path or polyline in the DOM"
	grep -q '</html>' "$work/dom" || fail "$file" "the DOM dump is incomplete"
	# names from the target stay text: no element, handler or script of theirs
	if ! injected=$(python3 "$here/dom_check.py" "$work/dom"); then
		fail "$file" "markup from the data: $(echo "$injected" | head -n 3 | tr '\n' ' ')"
	fi
	if ! ink=$(python3 "$here/png_check.py" "$work/shot.png"); then
		fail "$file" "the screenshot is blank or missing (${ink:-no screenshot})"
	fi
	[ "$bad" -eq 0 ] && echo "html_check: $file: $charts charts, $shapes shapes, no errors; screenshot $ink"
	rm -rf "$work/profile"
}

[ $# -gt 0 ] || { echo "usage: tests/html_check.sh FILE[:CHARTS]..." >&2; exit 1; }
for arg in "$@"; do
	case $arg in
	*:[0-9]*) check "${arg%:*}" "${arg##*:}" ;;
	*) check "$arg" 1 ;;
	esac
done
exit $status
