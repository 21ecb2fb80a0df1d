#!/usr/bin/python3
"""Records how lxml's HTML parser (parsel's) builds and serializes each input
of spec/fixtures/dom/html-cases.json, into spec/fixtures/dom/html-trees.json.

Every top-level node (comments, processing instructions and a second <html>
around the first included) is serialized as parsel's get() would; parsel's
get() of the root and a few XPath queries are recorded with it. Run with Debian's python3
after `apt-get install -y python3-scrapy`:
    /usr/bin/python3 scripts/record-html-trees.py
Two inputs are left out on purpose: CDATA inside HTML, and garbage after a
quoted attribute value, where libxml2's repairs are accidents, not rules.
"""
import json
import os
from lxml import etree
from parsel import Selector

here = os.path.join(os.path.dirname(__file__), '..', 'spec', 'fixtures', 'dom')
cases = json.load(open(os.path.join(here, 'html-cases.json'), encoding='utf8'))
# What a user sees of the tree: parsel's root (the first <html>), what the
# document holds past it (a second top-level <html> after </html>), and the
# attribute values as extracted (lxml's serializer drops C0 controls from them).
QUERIES = ['//p', '/html/body/p', '//text()', '//@*']
out = []
for text in cases:
    node = Selector(text=text).root
    while node.getprevious() is not None:
        node = node.getprevious()
    parts = []
    while node is not None:
        parts.append(etree.tostring(node, method='html', encoding='unicode', with_tail=False))
        node = node.getnext()
    sel = Selector(text=text)
    queries = {q: sel.xpath(q).getall() for q in QUERIES}
    out.append({'input': text, 'serialized': parts, 'get': sel.get(), 'queries': queries})
with open(os.path.join(here, 'html-trees.json'), 'w', encoding='utf8') as f:
    json.dump(out, f, indent=1, ensure_ascii=False, sort_keys=True)
    f.write('\n')
