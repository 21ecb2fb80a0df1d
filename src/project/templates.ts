/**
 * The templates of `startproject` and `genspider`: plain files under the
 * package's scaffold/ folder, read at run time so both commands work
 * offline and a user can read what they will get.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

export const SCAFFOLD_DIR = join(PACKAGE_ROOT, 'scaffold');
export const PROJECT_TEMPLATE_DIR = join(SCAFFOLD_DIR, 'project');
export const SPIDER_TEMPLATE_DIR = join(SCAFFOLD_DIR, 'spiders');

/** Template files end with `.tmpl`, which is dropped from the name of the file made from them. */
export const TEMPLATE_SUFFIX = '.tmpl';

/**
 * Replaces `${name}` for the names in `vars` only: templates are TypeScript,
 * whose own template literals (`${spider.name}`) must stay as they are.
 */
export function renderTemplate(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{([A-Za-z_]\w*)\}/g, (whole, name: string) => (Object.hasOwn(vars, name) ? vars[name]! : whole));
}

/** `my_project` → `MyProject` (Scrapy's string_camelcase: underscores removed, words capitalised). */
export function camelCaseName(name: string): string {
  return name
    .split('_')
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** The spider templates' names, sorted: basic, crawl, csvfeed, xmlfeed. */
export function spiderTemplateNames(): string[] {
  const suffix = '.ts' + TEMPLATE_SUFFIX;
  return readdirSync(SPIDER_TEMPLATE_DIR)
    .filter((file) => file.endsWith(suffix))
    .map((file) => file.slice(0, -suffix.length))
    .sort();
}
