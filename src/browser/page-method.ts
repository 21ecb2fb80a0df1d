/**
 * A step to run on the page once it has loaded, before its HTML is read:
 * a Playwright Page method by name with its arguments
 * (`new PageMethod('waitForSelector', 'div.quote')`,
 * `new PageMethod('click', 'button.more')`), or a function of the page.
 * What the step returned is kept in `result` (a screenshot's bytes, an
 * evaluate's value), as scrapy-playwright's PageMethod does.
 */
export class PageMethod {
  readonly method: string | ((page: unknown) => unknown);
  readonly args: readonly unknown[];
  result: unknown = undefined;

  constructor(method: string | ((page: any) => unknown), ...args: unknown[]) { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (typeof method !== 'string' && typeof method !== 'function') {
      throw new TypeError(`PageMethod takes a Page method's name (e.g. 'waitForSelector') or a function of the page, got ${typeof method}`);
    }
    this.method = method;
    this.args = args;
  }

  toString(): string {
    return `<PageMethod for method=${typeof this.method === 'string' ? `'${this.method}'` : this.method.name || 'function'} args=${JSON.stringify(this.args)}>`;
  }
}
