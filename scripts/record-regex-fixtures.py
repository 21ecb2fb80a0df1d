#!/usr/bin/python3
"""Record parsel 1.7's re() on multilingual text, for spec/selector/extract-regex.spec.ts.

Python's `re` reads a str pattern with Unicode classes: `\\w` is any letter or
digit of any script, `\\d` any decimal digit ('٣', '１'), `\\s` includes
\\x1c-\\x1f, \\x85 and \\xa0, and `\\b` is the edge of such a word. This
script runs each pattern below on each text with parsel.utils.extract_regex
(what Selector.re() calls) and, for the texts an HTML page can carry, through
Selector(...).css('p::text').re() and re_first() too, and writes
spec/fixtures/selectors/unicode-regex.json. Run it with the system python:

    /usr/bin/python3 scripts/record-regex-fixtures.py

The output is deterministic: a re-run that changes nothing leaves the file
byte-identical.
"""

import json
import pathlib
import sys

import parsel
from parsel import Selector
from parsel.utils import extract_regex

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "spec" / "fixtures" / "selectors" / "unicode-regex.json"

TEXTS = {
    "german": "ningún Kühling Straße Größe",
    "spanish": "Año niño señor ¿Qué pasó? mañana",
    "russian": "Привет, мир! Ёлка 2024 год",
    "greek": "Καλημέρα κόσμε Ωμέγα ΣΊΣΥΦΟΣ",
    "cjk": "東京都 渋谷区 価格１２３円",
    "korean": "서울특별시 강남구 가격 4500원",
    "arabic-digits": "السعر ٣٤٥ ريال و ۱۲ تومان",
    # Not on a page: lxml's HTML parser drops \x1c-\x1f, and its XPath refuses them.
    "spaces": "a\x1cb\x1dc\x1ed\x1fe\x85f\xa0g\u2003h\u3000i\ufeffj\u2028k\x0bl",
}

PATTERNS = [
    r"K\w+l",
    r"\w+",
    r"\W+",
    r"\b\w",
    r"\w\b",
    r"\w\B",
    r"\B\w+",
    r"\d+",
    r"\D+",
    r"\s",
    r"\S+",
    r"(\w+)\s(\w+)",
    r"[\w]+",
    r"[^\W\d]+",
    r"[\d\s]+",
    r"(?P<extract>\w+)$",
    r"(?i)straSSe|größe|σίσυφος|ёлка",
    r"^\w+",
    # \b and \B next to a literal, quantified or not (seine shortens the lookaround when one side is known).
    r"\bKü\w+",
    r"[ln]g\b",
    r"\B[hл]\w*",
    r"а?\b",
    r"\b\d+\b",
    r"\b2\d+",
    r"\bS?",
    r"\Bü?",
]


def main():
    if not parsel.__version__.startswith("1.7."):
        sys.exit(f"expected parsel 1.7.x, found {parsel.__version__}: use /usr/bin/python3")
    cases = []
    for name, text in TEXTS.items():
        on_page = name != "spaces"
        for pattern in PATTERNS:
            case = {"text": name, "pattern": pattern, "re": extract_regex(pattern, text)}
            if on_page:
                texts = Selector(text=f"<p>{text}</p>").css("p::text")
                case["selector_re"] = texts.re(pattern)
                case["selector_re_first"] = texts.re_first(pattern)
            cases.append(case)
    data = {"parsel": parsel.__version__, "texts": TEXTS, "cases": cases}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {OUT.relative_to(ROOT)} (parsel {parsel.__version__})")


if __name__ == "__main__":
    main()
