"""The spider Scrapy runs in bench:media: the twin of seine-spider.ts (one
request per listing page, one item per product with its image in
``image_urls``, ImagesPipeline with two thumbnail sizes).
``-a site=http://127.0.0.1:<port> -a pages=N``."""

import scrapy


class MediaBenchSpider(scrapy.Spider):
    name = "mediabench"
    custom_settings = {
        "ITEM_PIPELINES": {"scrapy.pipelines.images.ImagesPipeline": 1},
        "IMAGES_THUMBS": {"small": [50, 50], "big": [270, 270]},
    }

    def start_requests(self):
        for n in range(int(getattr(self, "pages", 1))):
            yield scrapy.Request(f"{self.site}/list/{n}", callback=self.parse)

    def parse(self, response):
        for src in response.css("div.product img::attr(src)").getall():
            yield {"image_urls": [response.urljoin(src)]}
