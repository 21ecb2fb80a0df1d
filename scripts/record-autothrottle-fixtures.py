#!/usr/bin/python3
"""Record Scrapy 2.8's AutoThrottle decisions for seine's AutoThrottle tests.

Feeds scrapy.extensions.throttle.AutoThrottle one response_downloaded at a
time (a real downloader Slot, a Request with download_slot and
download_latency in its meta, a Response with a status and a body) and
writes, per step, the slot's delay afterwards and the AUTOTHROTTLE_DEBUG
line it logged, to spec/fixtures/throttle/autothrottle.json. The tests read
the fixture, so they pass on machines without Python:

    /usr/bin/python3 scripts/record-autothrottle-fixtures.py

The output is deterministic: a re-run that changes nothing leaves the file
byte-identical.
"""

import json
import logging
import pathlib

from scrapy import Request, Spider
from scrapy.core.downloader import Slot
from scrapy.extensions.throttle import AutoThrottle
from scrapy.http import Response
from scrapy.settings import Settings

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "spec" / "fixtures" / "throttle" / "autothrottle.json"

# Each scenario: settings, then the responses of one slot in order as
# (latency in seconds, status, body size, requests transferring at the time).
SCENARIOS = [
    {
        "name": "converges towards the latency from the start delay",
        "settings": {"AUTOTHROTTLE_START_DELAY": 0.5, "AUTOTHROTTLE_TARGET_CONCURRENCY": 1},
        "responses": [(0.15, 200, 120, 1)] * 6,
    },
    {
        "name": "jumps straight up to a larger target",
        "settings": {"AUTOTHROTTLE_START_DELAY": 0.1, "AUTOTHROTTLE_TARGET_CONCURRENCY": 1},
        "responses": [(0.8, 200, 5000, 1), (0.2, 200, 5000, 2), (1.5, 200, 5000, 3)],
    },
    {
        "name": "divides the latency by the target concurrency",
        "settings": {"AUTOTHROTTLE_START_DELAY": 1, "AUTOTHROTTLE_TARGET_CONCURRENCY": 4},
        "responses": [(2.0, 200, 10, 4), (0.4, 200, 10, 4), (0.4, 200, 10, 4)],
    },
    {
        "name": "never goes below DOWNLOAD_DELAY nor above AUTOTHROTTLE_MAX_DELAY",
        "settings": {"AUTOTHROTTLE_START_DELAY": 0.1, "DOWNLOAD_DELAY": 0.3, "AUTOTHROTTLE_MAX_DELAY": 2},
        "responses": [(0.01, 200, 1, 1), (5.0, 200, 1, 1), (9.0, 200, 1, 1), (0.0, 200, 1, 1)],
    },
    {
        "name": "a non-200 response may raise the delay but never lower it",
        "settings": {"AUTOTHROTTLE_START_DELAY": 0.5},
        "responses": [(0.1, 500, 30, 1), (0.1, 404, 30, 1), (0.1, 302, 0, 1), (2.0, 503, 30, 1), (0.1, 200, 30, 1)],
    },
    {
        "name": "a start delay above the maximum holds until the first response",
        "settings": {"AUTOTHROTTLE_START_DELAY": 5, "AUTOTHROTTLE_MAX_DELAY": 1},
        "responses": [(0.2, 200, 1234567, 12)],
    },
]


class Captured(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


class FakeSignals:
    def connect(self, *args, **kwargs):
        pass


class FakeCrawler:
    def __init__(self, settings, slots):
        self.settings = settings
        self.signals = FakeSignals()
        self.engine = type("Engine", (), {"downloader": type("Downloader", (), {"slots": slots})()})()


def run(scenario):
    settings = Settings({"AUTOTHROTTLE_ENABLED": True, "AUTOTHROTTLE_DEBUG": True, **scenario["settings"]})
    slots = {}
    crawler = FakeCrawler(settings, slots)
    throttle = AutoThrottle.from_crawler(crawler)
    spider = Spider("fixture")
    throttle._spider_opened(spider)
    # The downloader makes a slot with the spider's download_delay, which AutoThrottle set to its start delay.
    slots["example.com"] = Slot(concurrency=8, delay=spider.download_delay, randomize_delay=False)
    start = slots["example.com"].delay
    handler = Captured()
    logger = logging.getLogger("scrapy.extensions.throttle")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    steps = []
    try:
        for latency, status, size, transferring in scenario["responses"]:
            slot = slots["example.com"]
            slot.transferring = set(range(transferring))
            request = Request("http://example.com/", meta={"download_slot": "example.com", "download_latency": latency})
            response = Response("http://example.com/", status=status, body=b"x" * size, request=request)
            handler.messages.clear()
            throttle._response_downloaded(response, request, spider)
            steps.append({
                "latency": latency,
                "status": status,
                "size": size,
                "transferring": transferring,
                "delay": slot.delay,
                "log": handler.messages[0],
            })
    finally:
        logger.removeHandler(handler)
    return {
        "name": scenario["name"],
        "settings": scenario["settings"],
        "minDelay": throttle.mindelay,
        "maxDelay": throttle.maxdelay,
        "startDelay": start,
        "steps": steps,
    }


def main():
    fixture = [run(s) for s in SCENARIOS]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
