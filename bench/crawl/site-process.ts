/**
 * Starts the benchmark site (site-server.ts) as a process of its own and
 * reads what it serves; bench:crawl and bench:distributed both measure
 * against it.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SiteHits } from './site-server.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** `delayMs` holds each page's answer back (a site's latency). */
export async function startSite(pages: number, delayMs = 0): Promise<{ url: string; process: ChildProcess }> {
  // stdin stays open: the site stops when it closes, so it never outlives this process.
  const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'site-server.ts'), String(pages), String(delayMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolveUrl((JSON.parse(out.slice(0, nl)) as { url: string }).url);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the benchmark site exited with status ${code} before it listened`)));
  });
  return { url, process: child };
}

/** What the site served since the last call (the counts reset). */
export async function siteHits(url: string): Promise<SiteHits> {
  const response = await fetch(`${url}/__hits`);
  return (await response.json()) as SiteHits;
}
