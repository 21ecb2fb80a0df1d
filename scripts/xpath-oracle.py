#!/usr/bin/python3
"""Print what lxml (through parsel's defaults) returns for XPath expressions.

seine's XPath engine must return what parsel 1.7 / lxml return; its tests record
these results as literals. Run with the system python (it has lxml and parsel):

  /usr/bin/python3 scripts/xpath-oracle.py '<a><b id="x">1</b></a>' 'count(//b)' '//b/@id'

Options: --html parses like parsel's HTML selector instead of as XML;
--ns prefix=uri adds a namespace (re and set are registered as parsel does);
--var name=json-value binds an XPath variable.

With --record-number-fixtures it instead rewrites spec/xpath/fixtures/
number-strings.json ([value, lxml string($x), Python repr(value)] for doubles
of every magnitude) and string-numbers.json ([text, lxml number($s)]); seeds
are fixed, so reruns give the same files.

Each result prints as one JSON line [expr, result] where result is one of
{"nodes": [...]}, {"string": s}, {"number": n}, {"boolean": b}, {"error": msg}.
Nodes are described as seine's spec/xpath/helpers describe DomNodes:
element `name` (+ `#id` when it has an id attribute), attribute `@name=value`,
text as a JSON string, `<!--comment-->`, `<?target data?>`, namespace
nodes `xmlns:prefix=uri` (prefix None for the default namespace).
"""
import json
import math
import random
import sys

from lxml import etree

NAMESPACES = {
    're': 'http://exslt.org/regular-expressions',
    'set': 'http://exslt.org/sets',
}


def describe(node):
    if isinstance(node, etree._Comment):
        return '<!--%s-->' % node.text
    if isinstance(node, etree._ProcessingInstruction):
        return '<?%s %s?>' % (node.target, node.text or '')
    if isinstance(node, etree._Element):
        qname = etree.QName(node)
        name = (node.prefix + ':' if node.prefix else '') + qname.localname
        node_id = node.get('id')
        return name + ('#' + node_id if node_id is not None else '')
    if isinstance(node, tuple):
        return 'xmlns:%s=%s' % node
    return json.dumps(str(node), ensure_ascii=False)


def number(value):
    if math.isnan(value):
        return 'NaN'
    if math.isinf(value):
        return 'Infinity' if value > 0 else '-Infinity'
    if value == 0 and math.copysign(1, value) < 0:
        return '-0'
    return int(value) if value == int(value) else value


def attr_written_names(root):
    # lxml reports attributes as {uri}local; tests want the name as written.
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for key in el.keys():
            if key.startswith('{'):
                uri, local = key[1:].split('}')
                prefix = next((p for p, u in el.nsmap.items() if u == uri and p), None)
                if uri == 'http://www.w3.org/XML/1998/namespace':
                    prefix = 'xml'
                yield key, (prefix + ':' + local) if prefix else local


FIXTURES = 'spec/xpath/fixtures/'


def encode_number(v):
    if math.isnan(v):
        return 'NaN'
    if math.isinf(v):
        return 'Infinity' if v > 0 else '-Infinity'
    if v == 0 and math.copysign(1, v) < 0:
        return '-0'
    return v


def number_strings():
    random.seed(20261121)
    to_string = etree.XPath('string($x)')
    vals = set()
    for e in range(-320, 308, 3):
        for _ in range(3):
            vals.add(random.uniform(1, 10) * 10.0 ** e)
    for _ in range(400):
        vals.add(random.uniform(-1e10, 1e10))
        vals.add(random.uniform(-1e-4, 1e-4))
        vals.add(random.uniform(-1000, 1000))
        vals.add(round(random.uniform(-1000, 1000), random.randint(0, 6)))
        vals.add(float(random.randint(-2**53, 2**53)))
        vals.add(random.randint(-10**6, 10**6) / 2 ** random.randint(1, 30))
    for k in range(-60, 60):
        vals.add(2.0 ** k)
        vals.add(-(2.0 ** k))
        vals.add(2.0 ** k + 0.5)
    for v in [0.1, 0.2, 0.3, 0.1 + 0.2, 1 / 3, 2 / 3, 1e9, 1e9 + 0.5, 999999999.5, 1e-5, 9.9999e-6, 1.00001e-5,
              2147483647, 2147483648, -2147483648, -2147483647, 2147483647.5, 5e-324, 1.7976931348623157e308,
              123456789012345678, 0.5, 1.5, 2.5, 4.35, 1e15, 1e16, 1e21, 1e22, 123.456, 100, 1e100]:
        vals.add(float(v))
        vals.add(-float(v))
    rows = [[v, to_string(etree.fromstring('<a/>'), x=v), repr(v)] for v in sorted(vals) if math.isfinite(v)]
    return rows[::2]


def string_numbers():
    random.seed(7)
    to_number = etree.XPath('number($s)')
    digits = '0123456789'

    def rd(n):
        return ''.join(random.choice(digits) for _ in range(n))

    strs = set()
    for _ in range(700):
        kind = random.randint(0, 6)
        if kind == 0:
            s = rd(random.randint(1, 20))
        elif kind == 1:
            s = rd(random.randint(0, 8)) + '.' + rd(random.randint(1, 25))
        elif kind == 2:
            s = (rd(random.randint(1, 5)) + '.' + rd(random.randint(0, 5)) + random.choice('eE')
                 + random.choice(['', '-', '+']) + rd(random.randint(1, 3)))
        elif kind == 3:
            s = '-' + rd(random.randint(1, 4)) + '.' + rd(random.randint(1, 18))
        elif kind == 4:
            s = random.choice([' ', '\t', '\n', '']) + rd(random.randint(1, 6)) + random.choice([' ', '\r', ''])
        elif kind == 5:
            s = '0.' + '0' * random.randint(0, 12) + rd(random.randint(1, 22))
        else:
            s = random.choice(['+1', '1e', '.', '-', '-.', '1..2', '1e+', '--1', '0x1A', 'NaN', 'Infinity', '1 2',
                               '\u0661', ' - 1', '1.5e-400', '1e400', '.e1', '5.e-1', '00012.50', '\u00a01'])
        strs.add(s)
    return [[s, encode_number(to_number(etree.fromstring('<a/>'), s=s))] for s in sorted(strs)]


def record_number_fixtures():
    for name, rows in (('number-strings.json', number_strings()), ('string-numbers.json', string_numbers())):
        with open(FIXTURES + name, 'w') as f:
            json.dump(rows, f, separators=(',', ':'), ensure_ascii=False)
        print(name, len(rows))


def main(argv):
    if argv == ['--record-number-fixtures']:
        record_number_fixtures()
        return
    html = False
    namespaces = dict(NAMESPACES)
    variables = {}
    args = []
    it = iter(argv)
    for arg in it:
        if arg == '--html':
            html = True
        elif arg == '--ns':
            prefix, uri = next(it).split('=', 1)
            namespaces[prefix] = uri
        elif arg == '--var':
            name, value = next(it).split('=', 1)
            variables[name] = json.loads(value)
        else:
            args.append(arg)
    text, exprs = args[0], args[1:]
    if html:
        from parsel import Selector
        root = Selector(text=text).root
    else:
        root = etree.fromstring(text)
    written = dict(attr_written_names(root))
    for expr in exprs:
        try:
            value = root.xpath(expr, namespaces=namespaces, **variables)
        except Exception as exc:  # lxml raises several classes; the message is what matters
            print(json.dumps([expr, {'error': '%s: %s' % (type(exc).__name__, exc)}], ensure_ascii=False, separators=(',', ':')))
            continue
        if isinstance(value, list):
            nodes = []
            for node in value:
                if getattr(node, 'is_attribute', False):
                    name = written.get(node.attrname, node.attrname)
                    nodes.append('@%s=%s' % (name, str(node)))
                else:
                    nodes.append(describe(node))
            result = {'nodes': nodes}
        elif isinstance(value, bool):
            result = {'boolean': value}
        elif isinstance(value, float):
            result = {'number': number(value)}
        else:
            result = {'string': str(value)}
        print(json.dumps([expr, result], ensure_ascii=False, separators=(',', ':')))


if __name__ == '__main__':
    main(sys.argv[1:])
