/**
 * Summarizes a V8 `.cpuprofile` (what `node --cpu-prof` writes): self time
 * per function and per file, largest first. Self time is the time a
 * function was on top of the stack, so the rows add up to the profile's
 * length and show where the CPU went, not who called it.
 *
 * seine runs from a bundle (dist/chunks/*.js, scripts/build.mjs), so a
 * frame's place is read through the bundle's source map: the rows name
 * src/dom/parse-html.ts:120, not a chunk and its 5,000th line.
 */

import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  functions: SelfTime[];
  files: SelfTime[];
}

/** A short place for a script URL: seine's own files from `src/` (or its dist/ build), packages by name, Node's internals as `node:`. */
export function shortFile(url: string): string {
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (pkg !== null) return `${pkg[1]}/${pkg[2]}`;
  const own = /\/(src|dist|bench)\/(.*)$/.exec(url);
  if (own !== null) return own[1] === 'dist' ? `src/${own[2]!.replace(/\.js$/, '.ts')}` : `${own[1]}/${own[2]}`;
  return url.replace(/^file:\/\//, '');
}

/** Each script's source map (or null when it has none), read once per summary. */
type MapCache = Map<string, SourceMap | null>;

function sourceMapOf(url: string, cache: MapCache): SourceMap | null {
  let map = cache.get(url);
  if (map !== undefined) return map;
  map = null;
  if (url.startsWith('file://')) {
    const path = `${fileURLToPath(url)}.map`;
    if (existsSync(path)) map = new SourceMap(JSON.parse(readFileSync(path, 'utf8')) as SourceMapPayload);
  }
  cache.set(url, map);
  return map;
}

/** Where a frame's code was written: its original file and line when the script has a source map, else the script's own. */
export function originalPlace(frame: CallFrame, cache: MapCache = new Map()): { url: string; line: number } {
  const map = sourceMapOf(frame.url, cache);
  if (map !== null) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber ?? 0) as { originalSource?: string; originalLine?: number };
    if (entry.originalSource !== undefined && entry.originalLine !== undefined) {
      return { url: new URL(entry.originalSource, frame.url).href, line: entry.originalLine + 1 };
    }
  }
  return { url: frame.url, line: frame.lineNumber + 1 };
}

function rank(totals: Map<string, number>, totalMs: number, limit: number): SelfTime[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, ms]) => ({ name, ms, share: ms / totalMs }));
}

export function summarizeProfile(profile: CpuProfile, limit = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const maps: MapCache = new Map();
  const places = new Map<CallFrame, { url: string; line: number }>();
  const fnTotals = new Map<string, number>();
  const fileTotals = new Map<string, number>();
  let totalUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const frame = byId.get(profile.samples[i]!);
    // A sample's delta is the time since the previous sample: the time the stack it records stood.
    const us = profile.timeDeltas[i] ?? 0;
    if (frame === undefined) continue;
    totalUs += us;
    let place = places.get(frame);
    if (place === undefined) places.set(frame, (place = originalPlace(frame, maps)));
    const file = shortFile(place.url);
    const fn = frame.url === '' ? frame.functionName : `${frame.functionName || '(anonymous)'} ${file}:${place.line}`;
    fnTotals.set(fn, (fnTotals.get(fn) ?? 0) + us / 1000);
    fileTotals.set(file, (fileTotals.get(file) ?? 0) + us / 1000);
  }
  const totalMs = totalUs / 1000;
  return { totalMs, functions: rank(fnTotals, totalMs, limit), files: rank(fileTotals, totalMs, limit) };
}

export function loadProfile(path: string): CpuProfile {
  return JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
}

export function formatSummary(summary: ProfileSummary, pages: number): string {
  const rows = (title: string, list: readonly SelfTime[]) => [
    title,
    ...list.map((r) => `  ${r.ms.toFixed(0).padStart(7)} ms  ${(r.share * 100).toFixed(1).padStart(5)} %  ${(r.ms / pages).toFixed(3).padStart(6)} ms/page  ${r.name}`),
  ];
  return [
    `profile: ${summary.totalMs.toFixed(0)} ms sampled over ${pages} pages (${(summary.totalMs / pages).toFixed(2)} ms/page)`,
    ...rows('self time by function:', summary.functions),
    ...rows('self time by file:', summary.files),
  ].join('\n');
}
