import { describe, expect, it } from '@jest/globals';
import { createSpider } from '../../src/contracts/create-spider.js';
import { Spider } from '../../src/contracts/spider.js';
import { SpiderArgumentError, SpiderDefinitionError } from '../../src/contracts/spider-errors.js';
import type { Response } from '../../src/http/response.js';

class TaggedSpider extends Spider {
  static override name = 'tagged';
  tag?: string;
  pages = '1';

  constructor(args: Readonly<Record<string, unknown>> = {}) {
    super(args);
    // What Scrapy's Spider.__init__ does (self.__dict__.update(kwargs)), done in the base constructor's place.
    Object.assign(this, args);
  }

  override parse(response: Response): void {
    void response;
  }
}

class ArrowCallbackSpider extends Spider {
  static override name = 'arrow';
  handle = (response: Response): string => response.url;
}

describe('createSpider', () => {
  it('assigns arguments after construction, so a field declared `tag?: string` holds its value', () => {
    const spider = createSpider(TaggedSpider, { tag: 'humor' });
    expect(spider.tag).toBe('humor');
    expect(spider).toBeInstanceOf(TaggedSpider);
  });

  it('shows why: a value set in a base constructor is wiped by the subclass field `tag?: string`', () => {
    class Base extends Spider {
      constructor(args: Readonly<Record<string, unknown>> = {}) {
        super(args);
        Object.assign(this, args);
      }
    }
    class Sub extends Base {
      static override name = 'sub';
      tag?: string;
    }
    expect(new Sub({ tag: 'humor' }).tag).toBeUndefined();
    expect(createSpider(Sub, { tag: 'humor' }).tag).toBe('humor');
  });

  it('passes the arguments to the constructor too', () => {
    let seen: unknown = null;
    class Reading extends Spider {
      static override name = 'reading';
      constructor(args: Readonly<Record<string, unknown>> = {}) {
        super(args);
        seen = args;
      }
    }
    createSpider(Reading, { category: 'books' });
    expect(seen).toEqual({ category: 'books' });
  });

  it('replaces plain fields, as Scrapy replaces attributes', () => {
    expect(createSpider(TaggedSpider, { pages: '5' }).pages).toBe('5');
  });

  it('refuses an argument that would replace a method', () => {
    expect(() => createSpider(TaggedSpider, { parse: 'x' })).toThrow(
      new SpiderArgumentError('parse', "Spider argument 'parse' would replace the method TaggedSpider.parse(); rename the argument (e.g. -a my_parse=…)"),
    );
    expect(() => createSpider(TaggedSpider, { start: 'x' })).toThrow("Spider argument 'start' would replace the method TaggedSpider.start()");
  });

  it('refuses an argument that would replace a function-valued field', () => {
    expect(() => createSpider(ArrowCallbackSpider, { handle: 'x' })).toThrow(
      "Spider argument 'handle' would replace the method ArrowCallbackSpider.handle(); rename the argument (e.g. -a my_handle=…)",
    );
  });

  it('refuses accessors and the fields seine sets', () => {
    expect(() => createSpider(TaggedSpider, { name: 'other' })).toThrow(
      "Spider argument 'name' would replace the accessor TaggedSpider.name; rename the argument (e.g. -a my_name=…)",
    );
    expect(() => createSpider(TaggedSpider, { logger: 'x' })).toThrow("would replace the accessor TaggedSpider.logger");
    expect(() => createSpider(TaggedSpider, { crawler: 'x' })).toThrow(
      "Spider argument 'crawler' is reserved: seine sets TaggedSpider.crawler itself; rename the argument",
    );
  });

  it('checks the arguments before running the constructor', () => {
    let constructed = false;
    class Watched extends Spider {
      static override name = 'watched';
      constructor() {
        super();
        constructed = true;
      }
    }
    expect(() => createSpider(Watched, { parse: 'x' })).toThrow(SpiderArgumentError);
    expect(constructed).toBe(false);
  });

  it('refuses a class without its own static name, and one that is not a spider', () => {
    class QuotesSpider extends Spider {}
    expect(() => createSpider(QuotesSpider)).toThrow(
      new SpiderDefinitionError("QuotesSpider must have a name: add `static name = 'quotes';` to the class"),
    );
    class NotASpider {}
    expect(() => createSpider(NotASpider as never)).toThrow(new SpiderDefinitionError("NotASpider is not a spider: spider classes extend Spider from 'seine'"));
  });

  it('gives error codes for the registry', () => {
    expect(SpiderDefinitionError.code).toBe('SEINE_SPIDER_DEFINITION');
    expect(SpiderArgumentError.code).toBe('SEINE_SPIDER_ARGUMENT');
    expect(new SpiderArgumentError('x', 'm').argument).toBe('x');
  });
});
