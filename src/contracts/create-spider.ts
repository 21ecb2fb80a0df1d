import { SpiderArgumentError, SpiderDefinitionError } from './spider-errors.js';
import { extendsSpider, spiderClassName, spiderName, type Spider, type SpiderClass } from './spider.js';

/** Spider arguments: strings from `-a name=value`; code calling crawl() may pass other values. */
export type SpiderArgs = Readonly<Record<string, unknown>>;

// Set by the framework, never from the command line.
const RESERVED = new Set(['crawler', 'constructor', '__proto__', 'prototype']);

/** Where `key` is defined on the instance or its prototype chain, and how. */
function definitionOf(spider: object, key: string): { owner: object; descriptor: PropertyDescriptor } | null {
  for (let owner: object | null = spider; owner !== null && owner !== Object.prototype; owner = Object.getPrototypeOf(owner) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(owner, key);
    if (descriptor !== undefined) return { owner, descriptor };
  }
  return null;
}

function refusal(spider: Spider, key: string): string | null {
  const cls = spiderClassName(spider.constructor);
  if (RESERVED.has(key)) return `Spider argument '${key}' is reserved: seine sets ${cls}.${key} itself; rename the argument`;
  const found = definitionOf(spider, key);
  if (found === null) return null;
  const { descriptor } = found;
  if (descriptor.get !== undefined || descriptor.set !== undefined) {
    return `Spider argument '${key}' would replace the accessor ${cls}.${key}; rename the argument (e.g. -a my_${key}=…)`;
  }
  if (typeof descriptor.value === 'function') {
    return `Spider argument '${key}' would replace the method ${cls}.${key}(); rename the argument (e.g. -a my_${key}=…)`;
  }
  return null;
}

/**
 * Constructs a spider and assigns its arguments as attributes afterwards, as
 * Scrapy does with `-a`. Afterwards matters: with ES2022 class fields, a
 * subclass field declared `tag?: string;` is redefined as undefined when the
 * subclass constructor runs, wiping whatever the base constructor set
 * (docs/dependencies.md). Arguments that would replace a method, an accessor
 * (`name`, `logger`) or `crawler` are refused before the spider is
 * constructed.
 */
export function createSpider<S extends Spider>(cls: SpiderClass<S>, args: SpiderArgs = {}): S {
  if (!extendsSpider(cls)) {
    const name = typeof cls === 'function' ? (cls as { name: string }).name : String(cls);
    throw new SpiderDefinitionError(`${name} is not a spider: spider classes extend Spider from 'seine'`);
  }
  if (spiderName(cls) === null) {
    throw new SpiderDefinitionError(`${cls.name} must have a name: add \`static name = '${cls.name.replace(/Spider$/, '').toLowerCase() || 'myspider'}';\` to the class`);
  }
  // Methods and accessors live on the prototype chain: check there first so a bad argument fails before any user code runs.
  const probe = Object.create(cls.prototype) as S;
  for (const key of Object.keys(args)) {
    const reason = refusal(probe, key);
    if (reason !== null) throw new SpiderArgumentError(key, reason);
  }
  const spider = new cls(args);
  for (const [key, value] of Object.entries(args)) {
    // Fields a constructor set to functions (`parse = (r) => …`) count as methods too.
    const reason = refusal(spider, key);
    if (reason !== null) throw new SpiderArgumentError(key, reason);
    (spider as unknown as Record<string, unknown>)[key] = value;
  }
  return spider;
}
