import { lazyPackage } from '../errors/lazy-package.js';
import { ACCEPT_ENCODING } from '../download/decompress.js';
import type { HeaderPairs } from './session.js';

/** Apify's header-generator (a Bayesian network over real browsers' headers), loaded only with SESSIONS_BROWSER_HEADERS. */
const headerGenerator = lazyPackage<typeof import('header-generator')>('header-generator', 'SESSIONS_BROWSER_HEADERS');

/** The encodings decompress.ts decodes; a browser's `zstd` would bring bodies seine cannot read. */
const DECODED = new Set(ACCEPT_ENCODING.split(',').map((coding) => coding.trim()));

/**
 * A maker of header sets that match the browser they claim: User-Agent with
 * its sec-ch-ua client hints, Accept, Accept-Language, Accept-Encoding and
 * sec-fetch-*, in that browser's order (desktop Chrome, en-US, as most
 * visitors of most sites). Accept-Encoding keeps only what seine decodes.
 */
export function browserHeaderMaker(): () => HeaderPairs {
  const { HeaderGenerator } = headerGenerator();
  const generator = new HeaderGenerator({ browsers: ['chrome'], devices: ['desktop'], locales: ['en-US'], operatingSystems: ['windows', 'macos', 'linux'] });
  return () => {
    const pairs: HeaderPairs = [];
    for (const [name, value] of Object.entries(generator.getHeaders())) {
      if (name.toLowerCase() === 'accept-encoding') {
        const kept = value.split(',').map((coding) => coding.trim()).filter((coding) => DECODED.has(coding));
        if (kept.length > 0) pairs.push([name, kept.join(', ')]);
      } else {
        pairs.push([name, value]);
      }
    }
    return pairs;
  };
}
