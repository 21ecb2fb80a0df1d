import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { CssError, cssToXPath, type CssDialect } from '../../src/css/index.js';

/** What parsel answered for one selector in one dialect (scripts/record-css-translations.py). */
type Recorded = { xpath: string } | { error: string; message: string; position: number | null };

interface Fixture {
  versions: { parsel: string; cssselect: string };
  translations: { css: string; html: Recorded; xml: Recorded }[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/css/translations.json', import.meta.url), 'utf8'),
) as Fixture;

/** What seine answers, in the same shape (position kept for comparison below). */
function seine(css: string, dialect: CssDialect): { xpath: string } | { error: 'CssError'; position: number | null } {
  try {
    return { xpath: cssToXPath(css, dialect) };
  } catch (err) {
    if (err instanceof CssError) return { error: 'CssError', position: err.position };
    throw err;
  }
}

describe.each(['html', 'xml'] as const)('cssToXPath in the %s dialect matches parsel 1.7', (dialect) => {
  const cases = fixture.translations.map((t) => [t.css, t[dialect]] as const);

  it.each(cases.filter(([, rec]) => 'xpath' in rec))('translates %j exactly as parsel does', (css, rec) => {
    expect(seine(css, dialect)).toEqual(rec);
  });

  it.each(cases.filter(([, rec]) => 'error' in rec))('rejects %j where parsel raises', (css, rec) => {
    const got = seine(css, dialect);
    expect('error' in got ? got.error : got.xpath).toBe('CssError');
    // cssselect names a position for syntax errors; inside :has() it counts
    // from the start of the re-parsed argument, so those are not comparable.
    if ('position' in rec && rec.position !== null && !/:has\(/i.test(css)) {
      expect('position' in got ? got.position : null).toBe(rec.position);
    }
  });
});

describe('the recorded fixture', () => {
  it('was recorded from parsel 1.7 with cssselect 1.2', () => {
    expect(fixture.versions).toEqual({ parsel: '1.7.0', cssselect: '1.2.0' });
  });

  it('covers at least 200 selectors, both translating and failing ones', () => {
    expect(fixture.translations.length).toBeGreaterThanOrEqual(200);
    expect(fixture.translations.filter((t) => 'error' in t.html).length).toBeGreaterThanOrEqual(50);
  });
});
