"""The spider Scrapy runs in seine's crawl benchmark: the twin of
seine-spider.ts (same start page, same four CSS queries per entry, every
link followed). ``-a site=http://127.0.0.1:<port>`` names the site."""

import scrapy


class CrawlBenchSpider(scrapy.Spider):
    name = "crawlbench"

    def start_requests(self):
        yield scrapy.Request(f"{self.site}/page/1/", callback=self.parse)

    def parse(self, response):
        for entry in response.css("div.entry"):
            yield {
                "title": entry.css("h2.entry-title a::text").get(),
                "author": entry.css("a.author::text").get(),
                "price": entry.css("span.price::text").get(),
                "tags": entry.css("div.tags a.tag::text").getall(),
            }
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse)
