import { isExportObject, type ExportValue } from '../export-value.js';
import { encodeText, feedEncoding, type FeedEncoding } from '../encoding.js';
import { pythonStr } from '../../python/value-repr.js';
import { serializedFields, type ExporterOptions, type ItemExporter } from './item-exporter.js';

/** XMLGenerator.characters(): only `&`, `<` and `>` are escaped. */
function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Scrapy's XmlItemExporter (Python's XMLGenerator underneath): `<items>`
 * of `<item>`s, one element per field, a list as `<value>` children, a
 * dict as child elements, None as `None`. With indent 0 (the default) only
 * items get their own line; above 0, every element is on its own line.
 * Characters the encoding cannot hold become character references.
 */
export class XmlExporter implements ItemExporter {
  readonly #options: ExporterOptions;
  readonly #encodingName: string;
  readonly #encoding: FeedEncoding;

  constructor(options: ExporterOptions) {
    this.#options = options;
    this.#encodingName = options.encoding ?? 'utf-8';
    this.#encoding = feedEncoding(this.#encodingName, options.feed);
  }

  #newline(newItem = false): string {
    const indent = this.#options.indent;
    return indent !== null && (indent > 0 || newItem) ? '\n' : '';
  }

  #indent(depth: number): string {
    return this.#options.indent ? ' '.repeat(this.#options.indent * depth) : '';
  }

  #field(name: string, value: ExportValue, depth: number): string {
    let out = this.#indent(depth) + `<${name}>`;
    if (isExportObject(value)) {
      out += this.#newline();
      for (const [subname, inner] of Object.entries(value)) out += this.#field(subname, inner, depth + 1);
      out += this.#indent(depth);
    } else if (Array.isArray(value)) {
      out += this.#newline();
      for (const inner of value) out += this.#field('value', inner, depth + 1);
      out += this.#indent(depth);
    } else {
      out += escapeText(pythonStr(value));
    }
    return out + `</${name}>` + this.#newline();
  }

  #bytes(text: string): Buffer {
    return encodeText(text, this.#encoding, 'xmlcharrefreplace');
  }

  start(): Buffer {
    return this.#bytes(`<?xml version="1.0" encoding="${this.#encodingName}"?>\n<items>` + this.#newline(true));
  }

  exportItem(item: unknown): Buffer {
    let out = this.#indent(1) + '<item>' + this.#newline();
    for (const [name, value] of serializedFields(item, this.#options.fields, false, undefined, '')) out += this.#field(name, value, 2);
    out += this.#indent(1) + '</item>' + this.#newline(true);
    return this.#bytes(out);
  }

  finish(): Buffer {
    return this.#bytes('</items>');
  }
}
