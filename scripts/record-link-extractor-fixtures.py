#!/usr/bin/python3
"""Records what Scrapy 2.8's LinkExtractor returns for the cases in
spec/fixtures/link-extractor/cases.json into expected.json beside it, for
spec/link-extractor/link-extractor.spec.ts to compare seine's results with.

Run with Debian's Python (Scrapy is installed there): /usr/bin/python3 scripts/record-link-extractor-fixtures.py
Option names are seine's camelCase; `processValue` names a function both
sides define ('javascript-target': the URL inside javascript:goToPage('…')).
"""
import json
import re
from pathlib import Path

from scrapy.http import HtmlResponse
from scrapy.linkextractors import LinkExtractor

ROOT = Path(__file__).resolve().parent.parent / "spec" / "fixtures" / "link-extractor"
NAMES = {
    "allowDomains": "allow_domains", "denyDomains": "deny_domains", "restrictXpaths": "restrict_xpaths",
    "restrictCss": "restrict_css", "restrictText": "restrict_text", "denyExtensions": "deny_extensions",
    "processValue": "process_value",
}


def javascript_target(value):
    m = re.search(r"goToPage\('([^']+)'\)", value)
    return m.group(1) if m else value


PROCESSORS = {"javascript-target": javascript_target}


def main():
    cases = json.loads((ROOT / "cases.json").read_text())
    expected = {}
    for case in cases:
        kwargs = {}
        for key, value in case["options"].items():
            if key == "processValue":
                value = PROCESSORS[value]
            kwargs[NAMES.get(key, key)] = value
        body = (ROOT / "pages" / case["page"]).read_bytes()
        response = HtmlResponse(case["url"], body=body, encoding=case.get("encoding"))
        links = LinkExtractor(**kwargs).extract_links(response)
        expected[case["name"]] = [
            {"url": l.url, "text": l.text, "fragment": l.fragment, "nofollow": l.nofollow} for l in links
        ]
    (ROOT / "expected.json").write_text(json.dumps(expected, indent=2, ensure_ascii=False) + "\n")
    print(f"recorded {len(expected)} cases")


if __name__ == "__main__":
    main()
