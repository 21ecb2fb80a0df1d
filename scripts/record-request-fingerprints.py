#!/usr/bin/python3
"""Record Scrapy 2.8 / w3lib 2.1's answers for seine's URL and fingerprint tests.

Writes two fixtures that spec/http/*.spec.ts compare seine against, so the
tests pass on machines without Python:

- spec/fixtures/http/urls.json: for each URL below, what w3lib's
  safe_url_string() makes of it (in the given encoding), what a Scrapy
  Request keeps as its url (or the error it raises), and canonicalize_url()
  of the safe URL.
- spec/fixtures/http/fingerprints.json: scrapy.utils.request.fingerprint()
  (the 2.7 implementation) of requests with methods, bodies, headers and
  fragments, as hex.

Run with the system python, which has Scrapy 2.8:

    /usr/bin/python3 scripts/record-request-fingerprints.py

The output is deterministic, so a re-run that changes nothing leaves the files
byte-identical.
"""

import json
import pathlib
import warnings

import scrapy
import w3lib
from scrapy import Request
from scrapy.utils.request import fingerprint
from w3lib.url import canonicalize_url, safe_url_string

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "spec" / "fixtures" / "http"

# (url, encoding). IPv6 hosts are left out on purpose: w3lib 2.1.1 drops their
# brackets, which seine does not copy (see src/http/url/safe-url-string.ts).
URLS = [
    ("http://www.example.com", "utf-8"),
    ("http://www.example.com/", "utf-8"),
    ("https://example.com/page-1.html", "utf-8"),
    ("HTTP://WWW.Example.COM/Path/To?Q=1#Frag", "utf-8"),
    ("http://www.example.com/do?c=3&b=5&b=2&a=50", "utf-8"),
    ("http://www.example.com/a b/c d?x=1 2&y=a+b#f g", "utf-8"),
    ("  http://www.example.com/trim\t\n  ", "utf-8"),
    ("http://www.example.com/r\u00e9sum\u00e9?q=caf\u00e9", "utf-8"),
    ("http://www.example.com/r\u00e9sum\u00e9?q=caf\u00e9#caf\u00e9", "latin1"),
    ("http://www.example.com/\u65e5\u672c?q=\u65e5\u672c", "shift_jis"),
    ("http://www.example.com/%7euser/%2Fslash%3fq%41?a=%7e&b=%2f", "utf-8"),
    ("http://www.example.com/%zz/%4?%zz=1", "utf-8"),
    ("http://www.example.com/p|q[1]^`{x}?a|b[]'\"<>", "utf-8"),
    ("ftp://files.example.com/a'b?c'd", "utf-8"),
    ("foo://h.example.com/x?a'b", "utf-8"),
    ("http://user:p%41ss w@www.example.com:8080/", "utf-8"),
    ("http://User@WWW.example.com/", "utf-8"),
    ("http://www.example.com:080/x", "utf-8"),
    ("http://www.example.com:/x", "utf-8"),
    ("http://www.example.com:abc/x", "utf-8"),
    ("http://www.example.com:99999/x", "utf-8"),
    ("http://www.example.com?", "utf-8"),
    ("http://www.example.com#", "utf-8"),
    ("http://www.example.com/?a=1&&b=&c&=d;e=5", "utf-8"),
    ("http://www.example.com/path;params?x=1", "utf-8"),
    ("http://www.example.com/a;b/c;d", "utf-8"),
    ("http://www.example.com/ajax.html#!key=value", "utf-8"),
    ("http://www.example.com/ajax.html?k1=v1&k2=v 2#!key=value", "utf-8"),
    ("http://www.example.com/ajax.html#!", "utf-8"),
    ("http://www.example.com/ajax.html?_escaped_fragment_=old&x=1#!new", "utf-8"),
    ("http://B\u00fccher.example/", "utf-8"),
    ("http://stra\u00dfe.de/", "utf-8"),
    ("http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/\u043f\u0443\u0442\u044c", "utf-8"),
    ("http://\u4f8b\u3048.\u30c6\u30b9\u30c8/", "utf-8"),
    ("http://127.0.0.1:8000/page/1/", "utf-8"),
    ("http://localhost:8000/", "utf-8"),
    ("https://example.com/search?q=%E2%82%AC&lang=en", "utf-8"),
    ("https://example.com/?q=a%20b+c", "utf-8"),
    ("https://example.com/?b=%C3%A9&a=%e9", "utf-8"),
    ("http:example.com/path", "utf-8"),
    ("/relative/path", "utf-8"),
    ("www.example.com/no-scheme", "utf-8"),
    ("localhost:8000", "utf-8"),
    ("mailto:someone@example.com", "utf-8"),
    ("javascript:void(0)", "utf-8"),
    ("about:blank", "utf-8"),
    ("data:text/plain,hello world", "utf-8"),
    ("file:///tmp/some file.html", "utf-8"),
    ("http://www.example.com/\u20ac?q=\u65e5", "latin1"),
    ("http://www.example.com/?q=\u20ac", "cp1252"),
]

# Requests to fingerprint: url plus Request keyword arguments, and the
# fingerprint() options.
FINGERPRINTS = [
    {"url": "http://www.example.com/"},
    {"url": "http://www.example.com"},
    {"url": "http://www.example.com/query?id=111&cat=222"},
    {"url": "http://www.example.com/query?cat=222&id=111"},
    {"url": "http://www.example.com/page#section"},
    {"url": "http://www.example.com/page#section", "keep_fragments": True},
    {"url": "http://www.example.com/page#other", "keep_fragments": True},
    {"url": "HTTP://WWW.EXAMPLE.COM/Page"},
    {"url": "http://www.example.com/page", "method": "POST"},
    {"url": "http://www.example.com/page", "method": "post", "body": "a=1&b=2"},
    {"url": "http://www.example.com/page", "method": "PUT", "body": "{\"k\": \"v\u00e9\"}"},
    {"url": "http://www.example.com/page", "method": "HEAD"},
    {"url": "http://www.example.com/r\u00e9sum\u00e9?q=caf\u00e9"},
    {"url": "http://www.example.com/a b?c d=e f"},
    {"url": "http://www.example.com/%7Euser/"},
    {"url": "http://www.example.com/~user/"},
    {"url": "http://www.example.com/do?c=3&b=5&b=2&a=50"},
    {"url": "http://www.example.com/do?a=50&b=2&b=5&c=3"},
    {"url": "http://www.example.com/?x=1;y=2"},
    {"url": "http://www.example.com/?flag"},
    {"url": "http://www.example.com/?flag="},
    {"url": "http://user:pass@www.example.com:8080/private"},
    {"url": "http://127.0.0.1:8000/page/12/?sort=asc&tag=humor"},
    {"url": "https://quotes.example.com/tag/love/page/2/"},
    {"url": "http://www.example.com/ajax.html#!key=value"},
    {"url": "http://B\u00fccher.example/katalog"},
    {"url": "http://www.example.com/page", "headers": {"Accept-Language": "en"}},
    {
        "url": "http://www.example.com/page",
        "headers": {"Accept-Language": "en", "X-Token": "abc"},
        "include_headers": ["accept-language"],
    },
    {
        "url": "http://www.example.com/page",
        "headers": {"Accept-Language": "fr", "X-Token": "abc"},
        "include_headers": ["Accept-Language", "X-Token", "X-Missing"],
    },
    {
        "url": "http://www.example.com/page",
        "headers": {"Cookie": ["a=1", "b=2"]},
        "include_headers": ["cookie"],
    },
    {"url": "http://www.example.com/page", "method": "GET", "body": "\u00e9\u00e8", "encoding": "latin1"},
    {"url": "http://www.example.com/search?q=\u00e9", "encoding": "latin1"},
    {"url": "http://www.example.com/%E2%82%AC/%e2%82%ac"},
    {"url": "http://www.example.com/path/../other/./page"},
]


def describe_error(error):
    return {"error": type(error).__name__, "message": str(error)}


def record_urls():
    rows = []
    for url, encoding in URLS:
        row = {"url": url, "encoding": encoding}
        try:
            safe = safe_url_string(url, encoding)
        except Exception as error:  # recorded, not raised: errors are cases too
            row["safe"] = describe_error(error)
        else:
            row["safe"] = safe
            row["canonical"] = canonicalize_url(safe)
        try:
            row["request"] = Request(url, encoding=encoding).url
        except Exception as error:
            row["request"] = describe_error(error)
        rows.append(row)
    return rows


def record_fingerprints():
    rows = []
    for case in FINGERPRINTS:
        kwargs = {k: case[k] for k in ("method", "body", "headers", "encoding") if k in case}
        request = Request(case["url"], **kwargs)
        options = {}
        if "include_headers" in case:
            options["include_headers"] = case["include_headers"]
        if case.get("keep_fragments"):
            options["keep_fragments"] = True
        row = dict(case)
        row["request_url"] = request.url
        row["fingerprint"] = fingerprint(request, **options).hex()
        rows.append(row)
    return rows


def write(name, data):
    path = FIXTURES / name
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)} ({len(data['cases'])} cases)")


def main():
    warnings.simplefilter("ignore")
    FIXTURES.mkdir(parents=True, exist_ok=True)
    meta = {"scrapy": scrapy.__version__, "w3lib": w3lib.__version__}
    write("urls.json", {"recorded_with": meta, "cases": record_urls()})
    write("fingerprints.json", {"recorded_with": meta, "cases": record_fingerprints()})


if __name__ == "__main__":
    main()
