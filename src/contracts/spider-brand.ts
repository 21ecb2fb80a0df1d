/**
 * Telling spiders and spider classes apart by a brand rather than by
 * `instanceof` (a project's own copy of seine makes classes of its own), and
 * their names. Kept apart from spider.ts so that code which only looks at
 * classes (the project loader, the CLI) does not load the Spider class and
 * with it requests, responses and selectors.
 */
import type { Spider, SpiderClass } from './spider.js';

export const SPIDER_BRAND = Symbol.for('seine.Spider');

/**
 * A class's own `static name = '…'` (spiders and contracts are named so), or
 * null when it has none. A class's built-in `name` (the identifier) is
 * non-enumerable; a static field is enumerable, which is how the two are
 * told apart.
 */
export function ownStaticName(cls: unknown): string | null {
  if (typeof cls !== 'function') return null;
  const own = Object.getOwnPropertyDescriptor(cls, 'name');
  return own !== undefined && own.enumerable === true && typeof own.value === 'string' && own.value !== '' ? own.value : null;
}

/** A spider class's own `static name = '…'`, or null for base classes. */
export function spiderName(cls: unknown): string | null {
  return ownStaticName(cls);
}

/**
 * The identifier a class was declared with. `static name = 'quotes'`
 * replaces `QuotesSpider.name`, so for messages the identifier is read from
 * the class source (`class QuotesSpider extends …`).
 */
export function spiderClassName(cls: Function): string {
  if (spiderName(cls) === null) return cls.name;
  const given = Object.getOwnPropertyDescriptor(cls, SPIDER_CLASS_NAME)?.value as unknown;
  if (typeof given === 'string') return given;
  // A bundler writes `var QuotesSpider = class extends …`: the class itself is anonymous, and `extends` is no name.
  const declared = /^class\s+(?!extends\b)([\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*)/u.exec(Function.prototype.toString.call(cls));
  return declared?.[1] ?? 'Spider';
}

/**
 * A spider class's identifier, for a class whose source does not say it:
 * seine's own spiders (DefaultSpider) run from a bundle, where esbuild
 * writes every class as `var Name = class extends …`.
 */
export const SPIDER_CLASS_NAME = Symbol.for('seine.spiderClassName');

/** True for a Spider subclass, also one loaded through another copy of seine (brand check, not instanceof). */
export function extendsSpider(value: unknown): value is SpiderClass {
  if (typeof value !== 'function') return false;
  const proto = (value as { prototype?: unknown }).prototype;
  return typeof proto === 'object' && proto !== null && (proto as Record<symbol, unknown>)[SPIDER_BRAND] === true;
}

/** True for a runnable spider class: extends Spider and has its own `static name`. */
export function isSpiderClass(value: unknown): value is SpiderClass {
  return extendsSpider(value) && spiderName(value) !== null;
}

/** True for a spider instance (brand check). */
export function isSpider(value: unknown): value is Spider {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SPIDER_BRAND] === true;
}
