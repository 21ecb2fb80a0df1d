#!/usr/bin/python3
"""Record how Scrapy 2.8 decodes response bodies that declare no usable charset.

Scrapy's TextResponse takes the encoding from a BOM, the Content-Type charset,
the body's <meta>/XML declaration, and otherwise infers it from the bytes:
ascii, then utf-8, then cp1252 (w3lib's resolve_encoding names ascii cp1252).
For each body below this records HtmlResponse's `encoding` and `text`
(TextResponse and XmlResponse must agree: the script stops if they do not),
and where `follow` is given, the URL response.follow() makes of it. Writes
spec/fixtures/http/encodings.json, which spec/http/decode-body.spec.ts and
spec/http/follow.spec.ts read. Run with the system python:

    /usr/bin/python3 scripts/record-encoding-fixtures.py
"""

import json
import pathlib
import sys

import scrapy
from scrapy.http import HtmlResponse, TextResponse, XmlResponse

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "spec" / "fixtures" / "http" / "encodings.json"

# (name, body bytes, Content-Type or None, hrefs to follow)
CASES = [
    ("ascii", b'<p><a href="/search?q=caf&eacute;">caf&eacute;</a></p>', None, ["/search?q=café", "/search?q=€"]),
    ("ascii-html-content-type", b"<p>plain</p>", "text/html", ["/search?q=café"]),
    ("utf-8", "<p>café über</p>".encode("utf-8"), None, ["/search?q=café"]),
    ("latin-1", "<p>Jérôme café über</p>".encode("latin-1"), None, ["/search?q=café"]),
    ("latin-1-html-content-type", "<p>Jérôme</p>".encode("latin-1"), "text/html", []),
    ("cp1252", "<p>“quoted” – €5</p>".encode("cp1252"), None, []),
    ("unknown-label-latin-1", "<p>Jérôme</p>".encode("latin-1"), "text/html; charset=foo", ["/search?q=café"]),
    ("unknown-label-utf-8", "<p>Jérôme</p>".encode("utf-8"), "text/html; charset=foo", []),
    ("unknown-label-ascii", b"<p>x</p>", "text/html; charset=foo", []),
    ("unknown-meta-latin-1", '<meta charset="foo"><p>Jérôme</p>'.encode("latin-1"), None, []),
    ("utf-8-cut-in-a-character", "<p>café".encode("utf-8")[:-1], None, []),
    ("empty", b"", None, []),
]


def main():
    if not scrapy.__version__.startswith("2.8"):
        sys.exit(f"expected Scrapy 2.8, found {scrapy.__version__}: use /usr/bin/python3")
    cases = []
    for name, body, content_type, hrefs in CASES:
        headers = {"Content-Type": content_type} if content_type else {}
        answers = []
        for cls in (HtmlResponse, TextResponse, XmlResponse):
            response = cls("http://example.com/page", body=body, headers=headers)
            answers.append((response.encoding, response.text))
        if len(set(answers)) != 1:
            sys.exit(f"{name}: HtmlResponse, TextResponse and XmlResponse differ: {answers}")
        response = HtmlResponse("http://example.com/page", body=body, headers=headers)
        cases.append({
            "name": name,
            "body": body.hex(),
            "contentType": content_type,
            "encoding": response.encoding,
            "text": response.text,
            "follow": {href: response.follow(href).url for href in hrefs},
        })
    OUT.write_text(json.dumps({"scrapy": scrapy.__version__, "cases": cases}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {OUT.relative_to(ROOT)} (Scrapy {scrapy.__version__})")


if __name__ == "__main__":
    main()
