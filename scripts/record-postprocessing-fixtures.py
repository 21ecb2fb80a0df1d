"""
Records what Scrapy 2.8's feed post-processing writes, for
spec/feeds/postprocessing-oracle.spec.ts.

Run with Debian's Python (Scrapy 2.8 is installed there):
    /usr/bin/python3 scripts/record-postprocessing-fixtures.py
Exports spec/fixtures/feeds/items.input.json's items as JSON Lines through
Scrapy's PostProcessingManager into spec/fixtures/feeds/postprocessing/,
one file per case, opened as Scrapy's FileFeedStorage opens a local feed
(so GzipFile takes the header's name from it), byte for byte what Scrapy wrote.
"""
import json
from pathlib import Path

from scrapy.exporters import JsonLinesItemExporter
from scrapy.extensions.postprocessing import PostProcessingManager

ROOT = Path(__file__).resolve().parent.parent
ITEMS = json.loads((ROOT / "spec" / "fixtures" / "feeds" / "items.input.json").read_text())
OUT = ROOT / "spec" / "fixtures" / "feeds" / "postprocessing"

# file name -> feed options, as a FEEDS entry gives them
CASES = {
    "items.jsonl.gz": {"postprocessing": ["scrapy.extensions.postprocessing.GzipPlugin"], "gzip_mtime": 1700000000},
    "level1.jsonl.gz": {"postprocessing": ["scrapy.extensions.postprocessing.GzipPlugin"], "gzip_mtime": 0, "gzip_compresslevel": 1, "gzip_filename": "named.jsonl.gz"},
    "items.jsonl.xz": {"postprocessing": ["scrapy.extensions.postprocessing.LZMAPlugin"]},
    "items.jsonl.lzma": {"postprocessing": ["scrapy.extensions.postprocessing.LZMAPlugin"], "lzma_format": 2},
    "items.jsonl.bz2": {"postprocessing": ["scrapy.extensions.postprocessing.Bz2Plugin"], "bz2_compresslevel": 5},
    "chain.jsonl.bz2.gz": {"postprocessing": ["scrapy.extensions.postprocessing.Bz2Plugin", "scrapy.extensions.postprocessing.GzipPlugin"], "gzip_mtime": 1},
}

OUT.mkdir(parents=True, exist_ok=True)
for name, options in CASES.items():
    path = OUT / name
    with path.open("wb") as file:
        managed = PostProcessingManager(options["postprocessing"], file, options)
        exporter = JsonLinesItemExporter(managed)
        exporter.start_exporting()
        for item in ITEMS:
            exporter.export_item(item)
        exporter.finish_exporting()
        managed.close()
(OUT / "cases.json").write_text(json.dumps(CASES, indent=2) + "\n")
print(f"wrote {len(CASES)} files to {OUT}")
