/**
 * Type tests for `meta.playwright: 'auto'` and the spider's `needsBrowser`
 * hook: `npx tsc --noEmit` fails if an `@ts-expect-error` line stops being an
 * error or a plain line becomes one. Not a jest file: never run.
 */
import { Request, Spider, type PlainResult, type RenderAwareSpider, type Response } from '../../src/index.js';

export function metaTypes(): void {
  new Request('http://example.com/', { meta: { playwright: 'auto' } });
  new Request('http://example.com/', { meta: { playwright: 'auto', playwright_auto_kind: 'article' } });
  new Request('http://example.com/', { meta: { playwright: true } });
  // @ts-expect-error: 'auto' is the only string playwright takes
  new Request('http://example.com/', { meta: { playwright: 'always' } });
  // @ts-expect-error: a kind is a string
  new Request('http://example.com/', { meta: { playwright_auto_kind: 3 } });
}

class Hooked extends Spider implements RenderAwareSpider {
  static override name = 'hooked';
  needsBrowser(response: Response, result: PlainResult): boolean {
    return result.items.length === 0 && result.requests.every((request) => request.url !== response.url);
  }
}
void Hooked;

class Wrong extends Spider implements RenderAwareSpider {
  static override name = 'wrong';
  // @ts-expect-error: the hook answers a boolean (or a Promise of one)
  needsBrowser(_response: Response): string {
    return 'yes';
  }
}
void Wrong;
