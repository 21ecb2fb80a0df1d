#!/usr/bin/python3
"""Record parsel 1.7's answers to the selector conformance cases.

Reads spec/fixtures/selectors/cases.json, runs every case against parsel and
writes spec/fixtures/selectors/expected.json, which
spec/selector/conformance.spec.ts compares seine's Selector against. The
tests read only the JSON, so they pass on machines without Python; run this
again (with the system python, which has parsel/lxml/cssselect) whenever a
case is added or changed:

    /usr/bin/python3 scripts/record-parsel-fixtures.py

The output is deterministic (sorted keys, stable indentation) so a re-run that
changes nothing leaves the file byte-identical and a real change shows up as a
readable diff.

A case that raises is recorded as {"error": "<ExceptionClassName>"}. Cases
must say so with "raises": true; an unexpected exception (or an expected one
that did not happen) aborts the recording instead of silently storing an
error as the expected answer.
"""

import json
import pathlib
import re
import sys

import cssselect
import lxml.etree
import parsel
from parsel import Selector, SelectorList

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "spec" / "fixtures" / "selectors"
CASES = FIXTURES / "cases.json"
EXPECTED = FIXTURES / "expected.json"

# Flags a case may give a RegExp; JavaScript-only flags ('g', 'u') change
# nothing in Python's findall/search, which always scan the whole text.
PY_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "g": 0, "u": 0}

CASE_KEYS = {"id", "group", "type", "doc", "steps", "extract", "raises", "note"}


class CaseError(Exception):
    """A malformed case in cases.json (not a parsel failure)."""


def load_doc(case):
    doc = case["doc"]
    if isinstance(doc, str):
        return doc
    if isinstance(doc, dict) and set(doc) == {"file"}:
        return (FIXTURES / "docs" / doc["file"]).read_text(encoding="utf-8")
    raise CaseError(f"doc must be a string or {{'file': name}}, got {doc!r}")


def compile_pattern(pattern):
    """A string stays a string (parsel compiles it); an object becomes a compiled regex."""
    if isinstance(pattern, str):
        return pattern
    if isinstance(pattern, dict):
        source = pattern.get("py", pattern.get("source"))
        if not isinstance(source, str):
            raise CaseError(f"regex object needs 'source' or 'py', got {pattern!r}")
        flags = 0
        for flag in pattern.get("flags", ""):
            if flag not in PY_FLAGS:
                raise CaseError(f"unsupported regex flag {flag!r} in {pattern!r}")
            flags |= PY_FLAGS[flag]
        return re.compile(source, flags)
    raise CaseError(f"pattern must be a string or an object, got {pattern!r}")


def apply_step(root, current, step):
    kind = step[0]
    if kind == "css":
        return current.css(step[1])
    if kind == "xpath":
        options = step[2] if len(step) > 2 else {}
        unknown = set(options) - {"vars", "namespaces"}
        if unknown:
            raise CaseError(f"unknown xpath options {sorted(unknown)}")
        return current.xpath(step[1], namespaces=options.get("namespaces"), **options.get("vars", {}))
    if kind == "index":
        if not isinstance(current, SelectorList):
            raise CaseError("index applies to a SelectorList")
        return current[step[1]]
    if kind == "registerNamespace":
        root.register_namespace(step[1], step[2])
        return current
    if kind == "removeNamespaces":
        root.remove_namespaces()
        return current
    raise CaseError(f"unknown step {step!r}")


def extract(current, how):
    if how == "getall":
        return current.getall()
    if how == "get":
        return current.get()
    if how == "attrib":
        return dict(current.attrib)
    if how == "repr":
        if isinstance(current, SelectorList):
            return [repr(s) for s in current]
        return repr(current)
    if how == "length":
        if not isinstance(current, SelectorList):
            raise CaseError("length applies to a SelectorList")
        return len(current)
    if isinstance(how, list) and how:
        if how[0] == "get" and len(how) == 2:
            if not isinstance(current, SelectorList):
                raise CaseError("get(default) exists only on SelectorList in parsel")
            return current.get(how[1])
        if how[0] == "re" and len(how) == 2:
            return current.re(compile_pattern(how[1]))
        if how[0] == "reFirst" and len(how) in (2, 3):
            default = how[2] if len(how) == 3 else None
            return current.re_first(compile_pattern(how[1]), default)
    raise CaseError(f"unknown extract {how!r}")


def run_case(case):
    selector = Selector(text=load_doc(case), type=case["type"])
    current = selector
    for step in case["steps"]:
        current = apply_step(selector, current, step)
    return extract(current, case["extract"])


def check_shape(case, seen):
    unknown = set(case) - CASE_KEYS
    if unknown:
        raise CaseError(f"unknown keys {sorted(unknown)}")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", case["id"]):
        raise CaseError("id must be kebab-case")
    if case["id"] in seen:
        raise CaseError("duplicate id")
    if case["type"] not in ("html", "xml"):
        raise CaseError(f"type must be html or xml, got {case['type']!r}")
    if not isinstance(case.get("group"), str) or not case["group"]:
        raise CaseError("group (the describe() title) is required")


def main():
    if not parsel.__version__.startswith("1.7."):
        sys.exit(f"expected parsel 1.7.x, found {parsel.__version__}: use /usr/bin/python3")
    cases = json.loads(CASES.read_text(encoding="utf-8"))
    expected = {}
    problems = []
    for case in cases:
        case_id = case.get("id", "?")
        try:
            check_shape(case, expected)
            try:
                outcome = {"value": run_case(case)}
            except CaseError:
                raise
            except Exception as exc:  # parsel/lxml/cssselect errors are the recorded answer
                outcome = {"error": type(exc).__name__}
                if not case.get("raises"):
                    problems.append(f"{case_id}: unexpected {type(exc).__name__}: {exc}")
            else:
                if case.get("raises"):
                    problems.append(f"{case_id}: marked raises but returned {outcome['value']!r}")
            expected[case_id] = outcome
        except CaseError as exc:
            problems.append(f"{case_id}: bad case: {exc}")
    if problems:
        sys.exit("not written:\n  " + "\n  ".join(problems))
    text = json.dumps(expected, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    EXPECTED.write_text(text, encoding="utf-8")
    print(
        f"wrote {len(expected)} cases to {EXPECTED.relative_to(ROOT)} "
        f"(parsel {parsel.__version__}, cssselect {cssselect.__version__}, "
        f"lxml {lxml.etree.__version__}, libxml2 {'.'.join(map(str, lxml.etree.LIBXML_VERSION))})"
    )


if __name__ == "__main__":
    main()
