#!/usr/bin/python3
"""Record what Scrapy 2.8 makes of sitemaps, for spec/spiders/sitemap.spec.ts.

Writes spec/spiders/fixtures/sitemaps.json with three lists, so the tests
pass on machines without Python:

- sitemaps: for each body below, scrapy.utils.sitemap.Sitemap's `type` and
  its entries (the dicts it yields), or the error it raises;
- robots: sitemap_urls_from_robots(text, base_url) for robots.txt texts;
- gunzip: scrapy.utils.gz.gunzip of whole, truncated, corrupt and
  concatenated gzip data (Scrapy keeps what decompressed before a fault).

Bodies are stored as text when they are UTF-8, else as base64.

Run with the system python, which has Scrapy 2.8:

    /usr/bin/python3 scripts/record-sitemap-fixtures.py

The output is deterministic: a re-run that changes nothing leaves the file
byte-identical.
"""

import base64
import gzip
import json
import pathlib

import scrapy
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots

OUT = pathlib.Path(__file__).resolve().parent.parent / "spec" / "spiders" / "fixtures" / "sitemaps.json"

SM = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
XHTML = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"'

SITEMAPS = [
    ("urlset with every field", f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset {SM}>
  <url>
    <loc>http://www.example.com/</loc>
    <lastmod>2009-08-16</lastmod>
    <changefreq>daily</changefreq>
    <priority>1</priority>
  </url>
  <url>
    <loc>http://www.example.com/Special-Offers.html</loc>
    <lastmod>2009-08-16</lastmod>
    <changefreq>weekly</changefreq>
    <priority>0.8</priority>
  </url>
</urlset>"""),
    ("sitemap index", f"""<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex {SM}>
   <sitemap>
      <loc>http://www.example.com/sitemap1.xml.gz</loc>
      <lastmod>2004-10-01T18:23:17+00:00</lastmod>
   </sitemap>
   <sitemap>
      <loc>http://www.example.com/sitemap2.xml.gz</loc>
      <lastmod>2005-01-01</lastmod>
   </sitemap>
</sitemapindex>"""),
    ("no namespace", "<urlset><url><loc>http://a.example/</loc></url></urlset>"),
    ("other namespace on the root", '<urlset xmlns="http://example.com/other"><url><loc>http://a.example/</loc></url></urlset>'),
    ("alternate links", f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset {SM} {XHTML}>
  <url>
    <loc>http://www.example.com/english/</loc>
    <xhtml:link rel="alternate" hreflang="de" href="http://www.example.com/deutsch/"/>
    <xhtml:link rel="alternate" hreflang="de-ch" href="http://www.example.com/schweiz-deutsch/"/>
    <xhtml:link rel="alternate" hreflang="en" href="http://www.example.com/english/"/>
  </url>
  <url>
    <loc>http://www.example.com/nolink/</loc>
  </url>
  <url>
    <loc>http://www.example.com/nohref/</loc>
    <xhtml:link rel="alternate" hreflang="en"/>
  </url>
</urlset>"""),
    ("link with an undeclared prefix is a plain field", '<urlset><url><loc>http://a.example/</loc><xhtml:link rel="alternate" href="http://b.example/"/></url></urlset>'),
    ("image and news extensions", f"""<urlset {SM} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
<url><loc>http://a.example/p</loc><image:image><image:loc>http://a.example/i.jpg</image:loc></image:image>
<news:news><news:title>Title</news:title></news:news></url></urlset>"""),
    ("entry without loc is skipped", "<urlset><url><lastmod>2020-01-01</lastmod></url><url><loc>http://a.example/</loc></url></urlset>"),
    ("empty loc and empty field", "<urlset><url><loc/><lastmod></lastmod></url><url><loc> </loc></url></urlset>"),
    ("whitespace around values is stripped", "<urlset><url><loc>\n\t http://a.example/x \n</loc><priority> 0.5\n</priority></url></urlset>"),
    ("the last of two locs wins", "<urlset><url><loc>http://a.example/1</loc><loc>http://a.example/2</loc></url></urlset>"),
    ("predefined and numeric entities", "<urlset><url><loc>http://a.example/?a=1&amp;b=2&#38;c=&#x33;</loc></url></urlset>"),
    ("CDATA", "<urlset><url><loc><![CDATA[http://a.example/?a=1&b=2]]></loc></url></urlset>"),
    ("comments are removed and the text around them joined", "<urlset><!-- c --><url><loc>http://a.example/<!-- c -->x</loc></url></urlset>"),
    ("text stops at a child element", "<urlset><url><loc>http://a.example/<b>bold</b>tail</loc></url></urlset>"),
    ("undefined entity is dropped", "<urlset><url><loc>http://a.example/&nbsp;x</loc></url></urlset>"),
    ("external entity is not resolved", '<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><urlset><url><loc>http://a.example/&xxe;</loc></url></urlset>'),
    ("unclosed document", "<urlset><url><loc>http://a.example/</loc></url>"),
    ("whitespace before the declaration", '  \n<?xml version="1.0"?><urlset><url><loc>http://a.example/</loc></url></urlset>'),
    ("an HTML page", "<html><head><title>x</title></head><body><a href='/'>x</a></body></html>"),
    ("upper-case root", "<URLSET><URL><LOC>http://a.example/</LOC></URL></URLSET>"),
    ("prefixed root with a declaration", '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>http://a.example/</sm:loc></sm:url></sm:urlset>'),
    ("rss feed", '<?xml version="1.0"?><rss version="2.0"><channel><link>http://a.example/</link></channel></rss>'),
    ("latin-1 declared", '<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>http://a.example/caf\xe9</loc></url></urlset>'.encode("latin-1")),
    ("UTF-8 with a BOM", "\ufeff<urlset><url><loc>http://a.example/\u00e9</loc></url></urlset>".encode("utf-8")),
    ("UTF-8 without a declaration", "<urlset><url><loc>http://a.example/\u65e5\u672c</loc></url></urlset>".encode("utf-8")),
    ("plain text sitemap", "http://a.example/1\nhttp://a.example/2\n"),
    ("empty body", ""),
]

ROBOTS = [
    ("Sitemap lines in any case, relative ones joined", """User-agent: *
Disallow: /private/
Sitemap: http://example.com/sitemap.xml
sitemap: /sitemap-news.xml
SITEMAP:   relative/sitemap.xml.gz
  Sitemap: http://other.example/s.xml
# Sitemap: http://example.com/commented.xml
Sitemapx: http://example.com/not.xml
""", "http://example.com/robots.txt"),
    ("CRLF, CR and form-feed line breaks", "Sitemap: /a.xml\r\nSitemap: /b.xml\rSitemap: /c.xml\x0cSitemap: /d.xml", "http://example.com/robots.txt"),
    ("a value with a colon and spaces inside", "Sitemap: http://example.com:8080/s.xml\nSitemap: /with space.xml", "http://example.com/robots.txt"),
    ("empty value is the robots.txt URL", "Sitemap:\n", "http://example.com/robots.txt"),
    ("no Sitemap lines", "User-agent: *\nDisallow:\n", "http://example.com/robots.txt"),
]


def body_field(data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        return {"body": data.decode("utf-8")} if not data.startswith(b"\xef\xbb\xbf") else {"bodyBase64": base64.b64encode(data).decode()}
    except UnicodeDecodeError:
        return {"bodyBase64": base64.b64encode(data).decode()}


def record_sitemap(name, data):
    raw = data.encode("utf-8") if isinstance(data, str) else data
    case = {"name": name, **body_field(raw)}
    try:
        sitemap = Sitemap(raw)
        case["type"] = sitemap.type
        case["entries"] = list(sitemap)
    except Exception as error:  # what Scrapy raises from the callback
        case["error"] = f"{type(error).__name__}: {error}"
    return case


def gzip_cases():
    text = "".join(f"<url><loc>http://a.example/page/{n}</loc></url>\n" for n in range(60)).encode()
    whole = gzip.compress(text, mtime=0)
    corrupt_crc = bytearray(whole)
    corrupt_crc[-6] ^= 0xFF
    named = gzip.compress(b"<urlset/>", mtime=0)
    # A header with FNAME set, as `gzip sitemap.xml` writes it.
    with_name = named[:3] + bytes([named[3] | 0x08]) + named[4:10] + b"sitemap.xml\x00" + named[10:]
    return [
        ("whole", whole),
        ("truncated", whole[:-40]),
        ("bad CRC", bytes(corrupt_crc)),
        ("garbage after the member", whole + b"garbage!"),
        ("two members", gzip.compress(b"<urlset>", mtime=0) + gzip.compress(b"</urlset>", mtime=0)),
        ("file name in the header", with_name),
    ]


def main():
    sitemaps = [record_sitemap(name, data) for name, data in SITEMAPS]
    robots = [
        {"name": name, "text": text, "base": base, "urls": list(sitemap_urls_from_robots(text, base_url=base))}
        for name, text, base in ROBOTS
    ]
    gunzips = []
    for name, data in gzip_cases():
        case = {"name": name, "inputBase64": base64.b64encode(data).decode()}
        try:
            case["output"] = gunzip(data).decode()
        except Exception as error:
            case["error"] = f"{type(error).__name__}: {error}"
        gunzips.append(case)
    fixture = {"scrapy": scrapy.__version__, "sitemaps": sitemaps, "robots": robots, "gunzip": gunzips}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=2, ensure_ascii=False) + "\n")
    print(f"recorded {len(sitemaps)} sitemaps, {len(robots)} robots.txt texts, {len(gunzips)} gzip bodies into {OUT}")


if __name__ == "__main__":
    main()
