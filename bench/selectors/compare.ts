/**
 * The agreement check: a speed ratio only means something if both engines
 * extracted the same strings. Counts are compared per query and page; when
 * they all agree the strings themselves are compared too, and the first
 * difference of either kind is reported with where it happened.
 */

import type { ExtractedValues, QueryValues } from './results.js';
import { countStrings } from './results.js';

export interface SetAgreement {
  name: string;
  seineStrings: number;
  parselStrings: number;
  /** Description of the first differing count, or null. */
  countDifference: string | null;
  /** Description of the first differing string where counts agree, or null. */
  valueDifference: string | null;
}

const SHOWN = 60;

/** A string as Python's repr would show it, shortened: the output must show '\n' and spaces. */
export function quote(value: string): string {
  const json = JSON.stringify(value.length > SHOWN ? value.slice(0, SHOWN) + '…' : value);
  return `'${json.slice(1, -1).replace(/'/g, "\\'").replace(/\\"/g, '"')}'`;
}

function describeSide(q: QueryValues | undefined): string {
  if (q === undefined) return 'nothing (query missing)';
  if (q.error !== undefined) return `an error (${q.error})`;
  const n = q.values?.length ?? 0;
  return `${n} string${n === 1 ? '' : 's'}`;
}

function shown(value: string | undefined): string {
  return value === undefined ? 'nothing' : quote(value);
}

function firstValueDifference(a: readonly string[], b: readonly string[]): string | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `string #${i + 1}: seine ${shown(a[i])} vs parsel ${shown(b[i])}`;
  }
  return null;
}

export function compareSet(
  name: string,
  files: readonly string[],
  seine: readonly QueryValues[][],
  parsel: readonly QueryValues[][],
): SetAgreement {
  let countDifference: string | null = null;
  let valueDifference: string | null = null;
  const pages = Math.max(seine.length, parsel.length);
  for (let p = 0; p < pages && countDifference === null; p++) {
    const s = seine[p] ?? [];
    const r = parsel[p] ?? [];
    const where = files.length > 1 ? `${files[p] ?? `page ${p + 1}`}, ` : '';
    for (let i = 0; i < Math.max(s.length, r.length); i++) {
      const sq = s[i];
      const rq = r[i];
      const label = rq?.label ?? sq?.label ?? `query ${i + 1}`;
      if (sq === undefined || rq === undefined || sq.label !== rq.label || sq.error !== undefined || rq.error !== undefined) {
        countDifference = `${where}${label}: seine gave ${describeSide(sq)}, parsel ${describeSide(rq)}`;
        break;
      }
      const sv = sq.values ?? [];
      const rv = rq.values ?? [];
      if (sv.length !== rv.length) {
        countDifference = `${where}${label}: seine ${sv.length} strings, parsel ${rv.length} (first difference at ${firstValueDifference(sv, rv)!})`;
        break;
      }
      if (valueDifference === null) {
        const diff = firstValueDifference(sv, rv);
        if (diff !== null) valueDifference = `${where}${label}: ${diff}`;
      }
    }
  }
  return { name, seineStrings: countStrings(seine), parselStrings: countStrings(parsel), countDifference, valueDifference };
}

/** The lines printed once per run: one summary line, or a WARNING per disagreeing set. */
export function agreementLines(agreements: readonly SetAgreement[]): string[] {
  const counts = agreements.map((a) => `${a.name} ${a.parselStrings.toLocaleString('en-US')}`).join(', ');
  const lines: string[] = [];
  const countsAgree = agreements.every((a) => a.countDifference === null && a.seineStrings === a.parselStrings);
  if (countsAgree) lines.push(`Result counts agree (strings extracted per set, seine = parsel): ${counts}.`);
  for (const a of agreements) {
    if (a.countDifference !== null || a.seineStrings !== a.parselStrings) {
      lines.push(
        `WARNING: seine and parsel extract different things from ${a.name} ` +
          `(seine ${a.seineStrings.toLocaleString('en-US')} strings, parsel ${a.parselStrings.toLocaleString('en-US')}); ` +
          `the ratio compares unequal work. First difference: ${a.countDifference ?? 'none found per query'}`,
      );
    } else if (a.valueDifference !== null) {
      lines.push(`WARNING: counts agree on ${a.name} but the strings differ. First difference: ${a.valueDifference}`);
    }
  }
  return lines;
}

export function compareAll(
  setFiles: ReadonlyMap<string, readonly string[]>,
  seine: ExtractedValues,
  parsel: ExtractedValues,
): SetAgreement[] {
  return [...setFiles].map(([name, files]) => compareSet(name, files, seine[name] ?? [], parsel[name] ?? []));
}
