/**
 * The contracts every check knows (Scrapy's SPIDER_CONTRACTS_BASE):
 * `@url`, `@cb_kwargs`, `@meta`, `@returns`, `@scrapes`. Their messages are
 * Scrapy's, so a ported spider's check reads the same.
 */
import { isRequest } from '../http/request.js';
import { notAnOutput } from '../contracts/callback-output.js';
import { Contract, ContractError, ContractFail, type ContractRequestArgs } from './contract.js';

/** An item as Scrapy's is_item sees one: an object that is not a Request (nor a value the engine rejects). */
export function isItemOutput(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !isRequest(value) && notAnOutput(value) === null;
}

function jsonObject(contract: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ContractError(`@${contract} takes a JSON object on one line, e.g. @${contract} {"page": 2}; got '${text}'`);
  }
  return value as Record<string, unknown>;
}

/** `@url URL`: the page the callback is checked against (every tested callback needs one). */
export class UrlContract extends Contract {
  static override name = 'url';

  override adjustRequestArgs(args: ContractRequestArgs): ContractRequestArgs {
    if (this.args.length !== 1 || this.args[0] === '') throw new ContractError('@url takes one URL, e.g. @url https://quotes.toscrape.com/');
    return { ...args, url: this.args[0]! };
  }
}

/** `@cb_kwargs {"page": 2}`: the callback's keyword arguments. */
export class CallbackKeywordArgumentsContract extends Contract {
  static override name = 'cb_kwargs';

  override adjustRequestArgs(args: ContractRequestArgs): ContractRequestArgs {
    return { ...args, cbKwargs: jsonObject('cb_kwargs', this.args.join(' ')) };
  }
}

/** `@meta {"foo": "bar"}`: the request's meta. */
export class MetadataContract extends Contract {
  static override name = 'meta';

  override adjustRequestArgs(args: ContractRequestArgs): ContractRequestArgs {
    return { ...args, meta: jsonObject('meta', this.args.join(' ')) };
  }
}

const RETURNS_KINDS: Readonly<Record<string, (value: unknown) => boolean>> = {
  request: isRequest,
  requests: isRequest,
  item: isItemOutput,
  items: isItemOutput,
};

function bound(contract: string, text: string): number {
  if (!/^-?\d+$/.test(text)) throw new ContractError(`@${contract} bounds are whole numbers, e.g. @returns items 1 10; got '${text}'`);
  return Number(text);
}

/** `@returns items|requests [min [max]]`: how many of them the callback produces (default: at least one). */
export class ReturnsContract extends Contract {
  static override name = 'returns';
  readonly kind: string;
  readonly min: number;
  readonly max: number;

  constructor(methodName: string, args: readonly string[]) {
    super(methodName, args);
    if (args.length < 1 || args.length > 3 || args[0] === '') {
      throw new ContractError(`@returns takes 1, 2 or 3 arguments (items|requests [min [max]]), got ${args[0] === '' ? 0 : args.length}`);
    }
    if (!(args[0]! in RETURNS_KINDS)) throw new ContractError(`@returns counts items or requests (item, items, request, requests), not '${args[0]}'`);
    this.kind = args[0]!;
    this.min = args.length > 1 ? bound('returns', args[1]!) : 1;
    this.max = args.length > 2 ? bound('returns', args[2]!) : Infinity;
  }

  override postProcess(output: readonly unknown[]): void {
    const matches = RETURNS_KINDS[this.kind]!;
    const occurrences = output.filter((value) => matches(value)).length;
    if (occurrences >= this.min && occurrences <= this.max) return;
    const expected = this.min === this.max ? `${this.min}` : `${this.min}..${this.max === Infinity ? 'inf' : this.max}`;
    throw new ContractFail(`Returned ${occurrences} ${this.kind}, expected ${expected}`);
  }
}

/** `@scrapes field…`: every item the callback produces has these fields. */
export class ScrapesContract extends Contract {
  static override name = 'scrapes';

  override postProcess(output: readonly unknown[]): void {
    for (const value of output) {
      if (!isItemOutput(value)) continue;
      const item = value as Record<string, unknown>;
      // A field set to undefined is left out of every feed, so it counts as missing.
      const missing = this.args.filter((field) => field !== '' && (!(field in item) || item[field] === undefined));
      if (missing.length > 0) throw new ContractFail(`Missing fields: ${missing.join(', ')}`);
    }
  }
}

/** The built-in contracts by the names SPIDER_CONTRACTS_BASE (and SPIDER_CONTRACTS, to disable one with null) use. */
export const BUILTIN_CONTRACTS: ReadonlyMap<string, typeof Contract> = new Map<string, typeof Contract>([
  ['UrlContract', UrlContract],
  ['CallbackKeywordArgumentsContract', CallbackKeywordArgumentsContract],
  ['MetadataContract', MetadataContract],
  ['ReturnsContract', ReturnsContract],
  ['ScrapesContract', ScrapesContract],
]);
