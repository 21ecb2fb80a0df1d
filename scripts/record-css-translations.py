#!/usr/bin/python3
"""Record parsel 1.7's CSS → XPath translations for seine's CSS translator.

Reads spec/fixtures/css/selectors.txt and writes spec/fixtures/css/translations.json,
which spec/css/translate.spec.ts compares seine's cssToXPath against, for the
HTML dialect (parsel's HTMLTranslator) and the XML one (GenericTranslator).
The tests read only the JSON, so they pass on machines without Python; run
this again with the system python (which has parsel and cssselect) whenever
selectors.txt changes:

    /usr/bin/python3 scripts/record-css-translations.py

selectors.txt: one selector per line, taken verbatim. Blank lines and lines
starting with '%%' are ignored. A line starting with 'json:' holds a JSON
string literal, for selectors with line breaks, tabs, trailing spaces or other
characters that a plain line cannot carry. A selector listed twice is an error.

A translation that raises is recorded as its exception class, message and,
for syntax errors, the position cssselect names in the message ("at N").
The output is deterministic: same input, byte-identical file.
"""

import json
import pathlib
import re
import sys

import cssselect
import parsel
from cssselect import SelectorSyntaxError
from parsel.csstranslator import GenericTranslator, HTMLTranslator

ROOT = pathlib.Path(__file__).resolve().parent.parent
SELECTORS = ROOT / "spec" / "fixtures" / "css" / "selectors.txt"
OUTPUT = ROOT / "spec" / "fixtures" / "css" / "translations.json"

POSITION_AT_END = re.compile(r" at (\d+)>?$")


def read_selectors():
    selectors = []
    seen = set()
    for number, line in enumerate(SELECTORS.read_text(encoding="utf-8").split("\n"), start=1):
        if line == "" or line.startswith("%%"):
            continue
        if line.startswith("json:"):
            selector = json.loads(line[len("json:"):])
            if not isinstance(selector, str):
                sys.exit(f"{SELECTORS}:{number}: json: must be followed by a JSON string")
        else:
            selector = line
        if selector in seen:
            sys.exit(f"{SELECTORS}:{number}: duplicate selector {selector!r}")
        seen.add(selector)
        selectors.append(selector)
    return selectors


def translate(translator, selector):
    # Bypass parsel's lru_cache so every call really translates.
    translate_uncached = type(translator).css_to_xpath.__wrapped__
    try:
        return {"xpath": translate_uncached(translator, selector)}
    except Exception as error:  # parsel lets KeyError, AttributeError, ... escape too
        message = str(error)
        position = None
        if isinstance(error, SelectorSyntaxError):
            match = POSITION_AT_END.search(message)
            if match:
                position = int(match.group(1))
        return {"error": type(error).__name__, "message": message, "position": position}


def main():
    html = HTMLTranslator()
    xml = GenericTranslator()
    records = [
        {"css": selector, "html": translate(html, selector), "xml": translate(xml, selector)}
        for selector in read_selectors()
    ]
    document = {
        "generator": "scripts/record-css-translations.py",
        "versions": {"parsel": parsel.__version__, "cssselect": cssselect.__version__},
        "translations": records,
    }
    OUTPUT.write_text(json.dumps(document, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    errors = sum(1 for r in records for d in ("html", "xml") if "error" in r[d])
    print(f"{len(records)} selectors, {errors} of {2 * len(records)} translations raise -> {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
