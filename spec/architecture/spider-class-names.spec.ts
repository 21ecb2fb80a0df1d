/**
 * seine's own named spiders are bundled into dist/ (scripts/build.mjs),
 * where esbuild writes `var DemoQuotesSpider = class extends Spider` and,
 * because the class has a static `name`, keeps no trace of its identifier:
 * `<DemoQuotesSpider 'quotes'>` would print as `<Spider 'quotes'>`. Each of
 * them has to state it with SPIDER_CLASS_NAME (src/contracts/spider-brand.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** `Class (file)` for every class in src/ that extends Spider with a spider name, and whether it states its class name. */
function namedSpiders(): { spider: string; states: boolean }[] {
  return sourceFiles(SRC).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/^export class (\w+) extends Spider \{\n((?:  .*\n|\n)*?)\}/gm)]
      .filter((match) => /^ {2}static override name = '/m.test(match[2]!))
      .map((match) => ({ spider: `${match[1]!} (${relative(SRC, file)})`, states: match[2]!.includes(`[SPIDER_CLASS_NAME] = '${match[1]!}'`) }));
  });
}

describe("seine's own named spiders", () => {
  it('state their class name for the bundle', () => {
    const spiders = namedSpiders();
    expect(spiders.map((entry) => entry.spider).sort()).toEqual(['BenchSpider (bench-site/bench-spider.ts)', 'DefaultSpider (shell/default-spider.ts)', 'DemoQuotesSpider (demo/quotes-spider.ts)']);
    expect(spiders.filter((entry) => !entry.states)).toEqual([]);
  });
});
