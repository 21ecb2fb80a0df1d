"""parsel/lxml side of seine's selector benchmark (run by run.ts; see docs/performance.md).

Does exactly what bench/selectors/seine-runner.ts does, on the same files and
the same queries.json, with the same timing loop: read every page into
memory first, then repeat whole passes (parse + extract every page) until at
least --seconds have passed, and report pages / elapsed. Prints one JSON
object on stdout; progress goes to stderr.
"""

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time

import lxml
import lxml.etree
import parsel
from parsel import Selector


def read_pages(folder, names):
    pages = []
    for name in names:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            pages.append(f.read())
    return pages


def run_query(sel, query):
    if "css" in query:
        return sel.css(query["css"])
    return sel.xpath(query["xpath"])


def take(result, how):
    if how == "get":
        value = result.get()
        return [] if value is None else [value]
    return result.getall()


def saved_work(queries):
    def work(html):
        sel = Selector(text=html)
        count = 0
        for query in queries:
            count += len(run_query(sel, query).getall())
        return count

    return work


def listing_work(listing, skip):
    # The extraction a spider callback does: one item per entry, then every link.
    entries = listing["entries"]
    fields = [f for f in listing["fields"] if f["name"] not in skip]
    links = None if "links" in skip else listing["links"]

    def work(html):
        sel = Selector(text=html)
        count = 0
        for entry in run_query(sel, entries):
            item = {}
            for field in fields:
                value = entry.css(field["css"])
                item[field["name"]] = value.get() if field["take"] == "get" else value.getall()
                count += len(take(value, field["take"]))
        if links is not None:
            count += len(run_query(sel, links).getall())
        return count

    return work


def query_work(parsed, query):
    """One query on a page parsed beforehand (--detail's per-query column)."""
    return lambda _html: len(run_query(parsed, query).getall())


def parse_work(html):
    Selector(text=html)
    return 0


def measure(pages, work, seconds):
    gc.collect()  # as timing.ts: every measurement starts from a collected heap
    done = 0
    sink = 0
    start = time.perf_counter()
    while True:
        for html in pages:
            sink += work(html)
        done += len(pages)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, sink


def timed(pages, work, args):
    measure(pages, work, args.warmup)
    runs = [measure(pages, work, args.seconds)[0] for _ in range(args.repeat)]
    return {"pagesPerSecond": statistics.median(runs), "runs": runs}


# --detail's shorter measurements, as DETAIL_TIMING in timing.ts.
DETAIL_TIMING = argparse.Namespace(seconds=0.5, warmup=0.2, repeat=1)


def describe(query):
    return ("css:" + query["css"]) if "css" in query else ("xpath:" + query["xpath"])


def saved_values(html, queries):
    """Per query: the strings extracted, or the error; untimed, for the agreement check."""
    sel = Selector(text=html)
    out = []
    for query in queries:
        try:
            out.append({"label": describe(query), "values": run_query(sel, query).getall()})
        except Exception as error:  # reported, never fatal: the other queries still count
            out.append({"label": describe(query), "error": f"{type(error).__name__}: {error}"})
    return [out]


def listing_values(pages, listing):
    result = []
    for html in pages:
        sel = Selector(text=html)
        out = []
        for n, entry in enumerate(run_query(sel, listing["entries"])):
            for field in listing["fields"]:
                label = f"entry {n + 1} {field['name']} (css:{field['css']} .{field['take']}())"
                out.append({"label": label, "values": take(entry.css(field["css"]), field["take"])})
        out.append({"label": "links (css:" + listing["links"]["css"] + ")", "values": run_query(sel, listing["links"]).getall()})
        result.append(out)
    return result


def count_strings(values):
    return sum(len(q.get("values", [])) for page in values for q in page)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", required=True)
    parser.add_argument("--saved-dir", required=True)
    parser.add_argument("--listing-dir", required=True)
    parser.add_argument("--listing-files", required=True, help="file with one listing page name per line")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip", default="{}", help='JSON {"<set>": [query index or field name, ...]} left out of timing')
    parser.add_argument("--detail", action="store_true", help="also time parse alone and each saved-page query alone")
    parser.add_argument("--dump", help="write every extracted string here (JSON), for the agreement check")
    parser.add_argument("--only", help="run just this set (a saved page's file name, or 'listing')")
    args = parser.parse_args()

    with open(args.queries, encoding="utf-8") as f:
        queries = json.load(f)
    skip = json.loads(args.skip)
    with open(args.listing_files, encoding="utf-8") as f:
        listing_names = [line.strip() for line in f if line.strip()]

    # Check first, write the strings out and let them go, then time: as in
    # seine-runner.ts, no extracted strings stay on the heap while timing.
    plans = []
    dump = {}
    for name, qs in queries["saved"].items():
        if args.only not in (None, name):
            continue
        print(f"parsel: {name}", file=sys.stderr)
        pages = read_pages(args.saved_dir, [name])
        values = saved_values(pages[0], qs)
        dump[name] = values
        failed = {i for i, q in enumerate(values[0]) if "error" in q}
        left_out = failed | set(skip.get(name, []))
        entry = {"name": name, "pages": 1, "strings": count_strings(values)}
        entry["errors"] = [q["label"] + ": " + q["error"] for q in values[0] if "error" in q]
        work = saved_work([q for i, q in enumerate(qs) if i not in left_out])
        per_query = [None if i in failed else q for i, q in enumerate(qs)]
        plans.append((entry, pages, work, per_query))

    if args.only in (None, "listing"):
        print(f"parsel: listing ({len(listing_names)} pages)", file=sys.stderr)
        pages = read_pages(args.listing_dir, listing_names)
        values = listing_values(pages, queries["listing"])
        dump["listing"] = values
        entry = {"name": "listing", "pages": len(pages), "strings": count_strings(values), "errors": []}
        plans.append((entry, pages, listing_work(queries["listing"], set(skip.get("listing", []))), []))

    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            json.dump(dump, f, ensure_ascii=False)
    dump = values = None  # nothing extracted stays referenced while timing

    for entry, pages, work, per_query in plans:
        print(f"parsel: timing {entry['name']}", file=sys.stderr)
        entry.update(timed(pages, work, args))
        if args.detail:
            entry["parseOnly"] = timed(pages, parse_work, DETAIL_TIMING)["pagesPerSecond"]
            if per_query:
                parsed = Selector(text=pages[0])
                entry["perQueryMs"] = [
                    None if q is None else 1000 / timed(pages, query_work(parsed, q), DETAIL_TIMING)["pagesPerSecond"]
                    for q in per_query
                ]
    sets = [entry for entry, *_ in plans]

    versions = {
        "python": platform.python_version(),
        "parsel": parsel.__version__,
        "lxml": lxml.__version__,
        "libxml2": ".".join(map(str, lxml.etree.LIBXML_VERSION)),
    }
    json.dump({"engine": "parsel", "versions": versions, "sets": sets}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
