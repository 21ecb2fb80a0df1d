import type { CallbackOutput, CallbackResult } from '../http/request.js';
import type { Response } from '../http/response.js';
import { Selector } from '../selector/index.js';
import { Spider, spiderClassName } from '../contracts/spider.js';
import { SpiderDefinitionError } from '../contracts/spider-errors.js';
import { collectOutputs } from './feed-results.js';
import { xmliter } from './xmliter.js';

export type XmlIterator = 'iternodes' | 'xml' | 'html';

/**
 * A spider for XML feeds (Scrapy's XMLFeedSpider): each response is split
 * into the nodes named `itertag`, and `parseNode(response, node)` is called
 * once per node with a Selector on it.
 *
 * `iterator`: 'iternodes' (default) cuts each node out of the text and
 * parses it alone, so a large feed is never parsed whole; 'xml' and 'html'
 * parse the whole document and select `//itertag`. `namespaces` lists
 * `[prefix, uri]` pairs registered on every node's selector (use the prefix
 * in `itertag` too, with the 'xml' iterator).
 */
export class XMLFeedSpider extends Spider {
  iterator: XmlIterator = 'iternodes';
  itertag = 'item';
  namespaces: ReadonlyArray<readonly [string, string]> = [];

  /** Parses a feed response: adaptResponse, then parseNodes over the nodes. */
  override parse(response: Response): CallbackResult {
    const adapted = this.adaptResponse(response);
    return this.parseNodes(adapted, this.nodesOf(adapted));
  }

  /** Called once per node; override it. Returns items and requests in any form a callback may. */
  parseNode(response: Response, selector: Selector): CallbackResult {
    void response;
    void selector;
    throw new SpiderDefinitionError(
      `${spiderClassName(this.constructor)} does not define parseNode(response, selector): an XMLFeedSpider needs it to scrape the <${this.itertag}> nodes of ${response.url}`,
    );
  }

  /** Changes the response before it is parsed (fix the markup, the encoding…); must return a response. */
  adaptResponse(response: Response): Response {
    return response;
  }

  /** Last look at what parseNode produced for one node; returns what to keep. */
  processResults(response: Response, results: CallbackOutput[]): Iterable<CallbackOutput> {
    void response;
    return results;
  }

  /** parseNode on each node, its results through processResults. */
  async *parseNodes(response: Response, nodes: Iterable<Selector>): AsyncIterable<CallbackOutput> {
    for (const node of nodes) {
      const results = await collectOutputs(this.parseNode(response, node));
      for (const output of this.processResults(response, results) ?? []) if (output != null) yield output;
    }
  }

  protected nodesOf(response: Response): Iterable<Selector> {
    switch (this.iterator) {
      case 'iternodes':
        return this.#iternodes(response);
      case 'xml':
      case 'html': {
        const selector = new Selector({ text: response.text, type: this.iterator });
        this.#registerNamespaces(selector);
        return selector.xpath(`//${this.itertag}`);
      }
      default:
        throw new SpiderDefinitionError(
          `Unsupported node iterator '${String(this.iterator)}' in ${spiderClassName(this.constructor)}.iterator: use 'iternodes', 'xml' or 'html'`,
        );
    }
  }

  *#iternodes(response: Response): Iterable<Selector> {
    for (const node of xmliter(response.text, this.itertag)) {
      this.#registerNamespaces(node);
      yield node;
    }
  }

  #registerNamespaces(selector: Selector): void {
    for (const [prefix, uri] of this.namespaces) selector.registerNamespace(prefix, uri);
  }
}
