"""
Records Scrapy 2.8's feed exporter output for spec/feeds/exporters.spec.ts.

Run with Debian's Python (Scrapy 2.8 is installed there):
    /usr/bin/python3 scripts/record-feed-fixtures.py
Writes spec/fixtures/feeds/items.input.json (the items, which the spec reads
back) and one file per case, byte for byte what the exporter wrote.
"""
import io
import json
from pathlib import Path

from scrapy.exporters import (
    CsvItemExporter, JsonItemExporter, JsonLinesItemExporter, XmlItemExporter,
)

OUT = Path(__file__).resolve().parent.parent / "spec" / "fixtures" / "feeds"

ITEMS = [
    {
        "text": "Caf\u00e9 \u201cquoted\u201d \u2603 \U0001F600",
        "author": None,
        "tags": ["a", "b"],
        "n": 3,
        "x": 1.5,
        "ok": True,
        "nested": {"k": "v", "l": [1, 2]},
        "empty": "",
    },
    {
        "author": "Ann <&> \"q\" 'single'",
        "text": "line1\nline2, comma\ttab \\ back\u007f",
        "tags": [],
        "extra": "not a csv column",
    },
    {"tags": [1, 2], "text": None, "ok": False, "rows": [{"a": "b"}]},
]

# name -> (exporter class, options, file name)
CASES = {
    "default.json": (JsonItemExporter, {"indent": 0}),
    "indent2-utf8.json": (JsonItemExporter, {"indent": 2, "encoding": "utf-8"}),
    "fields.json": (JsonItemExporter, {"indent": 0, "fields_to_export": ["text", "tags", "missing"]}),
    "default.jsonl": (JsonLinesItemExporter, {"indent": 0}),
    "utf8.jsonl": (JsonLinesItemExporter, {"indent": 0, "encoding": "utf-8"}),
    "default.csv": (CsvItemExporter, {"indent": 0}),
    "fields.csv": (CsvItemExporter, {"indent": 0, "fields_to_export": ["author", "missing", "tags"]}),
    "latin1.csv": (CsvItemExporter, {"indent": 0, "encoding": "latin-1", "errors": "replace"}),
    "default.xml": (XmlItemExporter, {"indent": 0}),
    "indent2.xml": (XmlItemExporter, {"indent": 2}),
    "latin1.xml": (XmlItemExporter, {"indent": 0, "encoding": "latin-1"}),
}


def export(cls, options, items):
    buffer = io.BytesIO()
    exporter = cls(buffer, **options)
    exporter.start_exporting()
    for item in items:
        exporter.export_item(item)
    exporter.finish_exporting()
    return buffer.getvalue()


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "items.input.json").write_text(json.dumps(ITEMS, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for name, (cls, options) in CASES.items():
        (OUT / name).write_bytes(export(cls, options, ITEMS))
    # An empty feed (store_empty): what start + finish write with no item.
    for name, cls in (("empty.json", JsonItemExporter), ("empty.xml", XmlItemExporter)):
        (OUT / name).write_bytes(export(cls, {"indent": 0}, []))


if __name__ == "__main__":
    main()
