#!/usr/bin/env python3
"""Did a name from the target become markup? (the DOM Chromium built)

Usage: dom_check.py DOM_FILE
Reads the DOM that `chromium --dump-dom` printed for one of fctrace's HTML
reports and fails on anything the reporters never write: an element
outside their set (an <img> or <iframe> a thread name smuggled in), an
event handler attribute (onerror=, onload=, ...), an attribute a payload
sets when its script runs (data-pwned), or more than the one <script>
of the flame graphs. Names from the target are text: escaped, they stay
text, whatever they hold.
Exit: 0 clean; 1 something was injected (each printed); 2 unreadable.
"""
import sys
from html.parser import HTMLParser

# every element user/report/*.c writes (the page, its tables, inline SVG)
ELEMENTS = {
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "b", "i",
    "code", "div", "span", "table", "tbody", "thead", "tr", "th", "td", "pre", "a",
    "footer", "script", "svg", "g", "rect", "path", "polyline", "line", "circle", "text",
}
# what a test's payload sets on the page when its handler runs
MARKERS = {"data-pwned"}


class Injected(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found, self.scripts = [], 0

    def handle_starttag(self, tag, attrs):
        if tag not in ELEMENTS:
            self.found.append("element <%s>" % tag)
        self.scripts += tag == "script"
        for name, value in attrs:
            if name.startswith("on") or name in MARKERS:
                self.found.append("attribute %s=%r on <%s>" % (name, value, tag))

    handle_startendtag = handle_starttag


def main():
    if len(sys.argv) != 2:
        print("usage: dom_check.py DOM_FILE", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
            dom = f.read()
    except OSError as e:
        print("dom_check: %s" % e, file=sys.stderr)
        return 2
    p = Injected()
    p.feed(dom)
    p.close()
    if p.scripts > 1:
        p.found.append("%d <script> elements (the page writes at most one)" % p.scripts)
    for what in p.found:
        print("dom_check: injected: %s" % what)
    return 1 if p.found else 0


if __name__ == "__main__":
    sys.exit(main())
