/**
 * The bench site alone: the page shape (Scrapy's benchserver's), that
 * `total` bounds the distinct URLs, and a real server on 127.0.0.1.
 */
import { describe, expect, it } from '@jest/globals';
import { renderBenchPage, startBenchServer } from '../../src/bench-site/index.js';

/** A `random` that returns the given values in turn. */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

function hrefs(body: string): string[] {
  return [...body.matchAll(/<a href='([^']*)'>/g)].map((match) => match[1]!);
}

describe('renderBenchPage', () => {
  it('links `show` times to /follow with n from 1 to total, the other arguments carried over', () => {
    const page = renderBenchPage('/?total=10&show=3', sequence(0, 0.55, 0.999));
    expect(page.status).toBe(200);
    expect(page.contentType).toBe('text/html; charset=utf-8');
    expect(page.body).toBe(
      "<html><head></head><body><a href='/follow?total=10&show=3&n=1'>follow 1</a><br>" +
        "<a href='/follow?total=10&show=3&n=6'>follow 6</a><br>" +
        "<a href='/follow?total=10&show=3&n=10'>follow 10</a><br></body></html>",
    );
  });

  it('replaces n on a followed page instead of adding to it, so URLs do not grow', () => {
    const page = renderBenchPage('/follow?total=10&show=1&order=rand&n=4', sequence(0.25));
    expect(hrefs(page.body)).toEqual(['/follow?total=10&show=1&order=rand&n=3']);
  });

  it('defaults to total 100 and show 10, as Scrapy', () => {
    const links = hrefs(renderBenchPage('/', sequence(0.999)).body);
    expect(links).toEqual(Array(10).fill('/follow?n=100'));
  });

  it('offers at most `total` distinct URLs', () => {
    const links = new Set(hrefs(renderBenchPage('/?total=5&show=500').body));
    expect(links.size).toBeLessThanOrEqual(5);
    for (const link of links) expect(link).toMatch(/^\/follow\?total=5&show=500&n=[1-5]$/);
  });

  it('answers 400 to a total or show that is not a whole number', () => {
    expect(renderBenchPage('/?total=abc').status).toBe(400);
    expect(renderBenchPage('/?total=0').status).toBe(400);
    expect(renderBenchPage('/?show=-1').status).toBe(400);
  });
});

describe('startBenchServer', () => {
  it('serves the pages on a free port of 127.0.0.1 and stops listening when closed', async () => {
    const server = await startBenchServer();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    try {
      const response = await fetch(new URL('/?total=3&show=20', server.url));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const links = hrefs(await response.text());
      expect(links).toHaveLength(20);
      for (const link of links) expect(link).toMatch(/^\/follow\?total=3&show=20&n=[1-3]$/);
      const followed = await fetch(new URL(links[0]!, server.url));
      expect(hrefs(await followed.text())).toHaveLength(20);
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
