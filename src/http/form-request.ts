/**
 * Scrapy's FormRequest: a request that sends form fields, urlencoded (in the
 * body for POST, in the query for GET), and `FormRequest.fromResponse()`,
 * which reads a form of a page as a browser would submit it: the form chosen
 * by name, id, XPath, CSS or number; its fields as lxml's form elements read
 * them (Scrapy's `_get_inputs`); the submit button clicked; its action and
 * method. Recorded Scrapy results are in spec/http/fixtures/forms-scrapy.json.
 */
import { SeineError } from '../errors/seine-error.js';
import type { Selector } from '../selector/selector.js';
import { Headers } from './headers.js';
import { Request, type RequestOptions } from './request.js';
import type { Response } from './response.js';
import { joinUrl } from './urljoin.js';
import { encodeBinary } from './url/encode-text.js';
import { quotePlusBinary, safeSet } from './url/quote.js';

export class FormError extends SeineError {
  static readonly code = 'SEINE_FORM';

  constructor(message: string) {
    super(FormError.code, message);
  }
}

/** Fields: an object (a `null` value leaves the field out) or name/value pairs; an array value repeats the field. */
export type FormData = Readonly<Record<string, string | readonly string[] | null | undefined>> | ReadonlyArray<readonly [string, string | readonly string[] | null | undefined]>;

export interface FormRequestOptions extends RequestOptions {
  formdata?: FormData | null;
}

export interface FromResponseOptions extends FormRequestOptions {
  formname?: string;
  formid?: string;
  formnumber?: number;
  formxpath?: string;
  formcss?: string;
  /** Attributes of the element to click (`{ name: 'action', value: 'delete' }`), or `{ nr: n }`: the n-th field of the form. */
  clickdata?: Readonly<Record<string, string | number>>;
  /** Submit without clicking any button. */
  dontClick?: boolean;
  url?: string;
}

const QUOTE_PLUS_SAFE = safeSet('');

function pairs(formdata: FormData): Array<[string, string | readonly string[] | null | undefined]> {
  return Array.isArray(formdata) ? formdata.map(([k, v]) => [k, v]) : Object.entries(formdata as Record<string, string | readonly string[] | null | undefined>);
}

function hasFields(formdata: FormData | null | undefined): formdata is FormData {
  if (formdata === null || formdata === undefined) return false;
  return Array.isArray(formdata) ? formdata.length > 0 : Object.keys(formdata).length > 0;
}

/** Python's urlencode(…, doseq=True) of the fields encoded with `encoding`. */
export function urlencodeForm(fields: Iterable<readonly [string, string | readonly string[] | null | undefined]>, encoding: string): string {
  const out: string[] = [];
  for (const [name, value] of fields) {
    const values = Array.isArray(value) ? (value as readonly string[]) : [value as string];
    for (const one of values) out.push(`${quotePlusBinary(encodeBinary(String(name), encoding), QUOTE_PLUS_SAFE)}=${quotePlusBinary(encodeBinary(String(one ?? 'None'), encoding), QUOTE_PLUS_SAFE)}`);
  }
  return out.join('&');
}

function withFormData(url: string, options: FormRequestOptions): { url: string; options: RequestOptions } {
  const { formdata, ...rest } = options;
  if (!hasFields(formdata)) return { url, options: rest };
  const method = (rest.method ?? 'POST').toUpperCase();
  const encoding = rest.encoding ?? 'utf-8';
  const query = urlencodeForm(pairs(formdata), encoding);
  if (method === 'POST') {
    const headers = new Headers(rest.headers);
    headers.setDefault('Content-Type', 'application/x-www-form-urlencoded');
    return { url, options: { ...rest, method, headers, body: query } };
  }
  // A GET form replaces the URL's query with its fields, as a browser does.
  const hash = url.indexOf('#');
  const fragment = hash >= 0 ? url.slice(hash) : '';
  const base = (hash >= 0 ? url.slice(0, hash) : url).split('?')[0]!;
  return { url: `${base}?${query}${fragment}`, options: { ...rest, method } };
}

export class FormRequest extends Request {
  constructor(url: string, options: FormRequestOptions = {}) {
    const built = withFormData(url, options);
    super(built.url, built.options);
  }

  /** The request a browser would make when the form is submitted (Scrapy's `FormRequest.from_response`). */
  static fromResponse<T extends typeof FormRequest>(this: T, response: Response, options: FromResponseOptions = {}): InstanceType<T> {
    const { formname, formid, formnumber = 0, formxpath, formcss, formdata, clickdata, dontClick = false, url, method, ...rest } = options;
    const form = findForm(response, { formname, formid, formnumber, formxpath: formcss !== undefined ? null : formxpath, formcss });
    const fields = formFields(form, formdata ?? null, dontClick, clickdata ?? null);
    const action = form.xpath('@action').get();
    const base = response.baseUrl;
    const target = url !== undefined ? joinUrl(url, base, 'utf-8') : action === null ? base : joinUrl(action.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, ''), base, 'utf-8');
    let formMethod = (method ?? form.xpath('@method').get() ?? 'GET').toUpperCase();
    if (formMethod !== 'GET' && formMethod !== 'POST') formMethod = 'GET';
    return new this(target, { encoding: response.encoding, ...rest, method: formMethod, formdata: fields }) as InstanceType<T>;
  }
}

interface FormChoice {
  formname?: string | undefined;
  formid?: string | undefined;
  formnumber: number | null;
  formxpath?: string | null | undefined;
  formcss?: string | undefined;
}

function findForm(response: Response, choice: FormChoice): Selector {
  const forms = response.xpath('//form');
  if (forms.length === 0) throw new FormError(`No <form> element found in <${response.status} ${response.url}>`);
  if (choice.formname !== undefined) {
    const found = response.xpath('//form[@name=$name]', { name: choice.formname });
    if (found.length > 0) return found[0]!;
  }
  if (choice.formid !== undefined) {
    const found = response.xpath('//form[@id=$id]', { id: choice.formid });
    if (found.length > 0) return found[0]!;
  }
  if (choice.formcss !== undefined || (choice.formxpath !== undefined && choice.formxpath !== null)) {
    const nodes = choice.formcss !== undefined ? response.css(choice.formcss) : response.xpath(choice.formxpath!);
    const form = nodes.length > 0 ? nodes[0]!.xpath('ancestor-or-self::form[1]') : null;
    if (form !== null && form.length > 0) return form[0]!;
    throw new FormError(`No <form> element found with ${choice.formcss !== undefined ? choice.formcss : choice.formxpath}`);
  }
  const number = choice.formnumber ?? 0;
  const form = number >= 0 && number < forms.length ? forms[number] : undefined;
  if (form === undefined) throw new FormError(`Form number ${number} not found in <${response.status} ${response.url}>`);
  return form;
}

const FIELDS =
  'descendant::textarea|descendant::select|descendant::input[not(@type) or @type[not(re:test(., "^(?:submit|image|reset)$", "i")) and (../@checked or not(re:test(., "^(?:checkbox|radio)$", "i")))]]';
const CLICKABLES = 'descendant::input[re:test(@type, "^(submit|image)$", "i")]|descendant::button[not(@type) or re:test(@type, "^submit$", "i")]';

function optionValue(option: Selector): string {
  return option.xpath('@value').get() ?? option.xpath('normalize-space(string())').get() ?? '';
}

/** One field as lxml reads it: [name, value], a list for a multiple select, or null when it sends nothing. */
function fieldValue(field: Selector): [string | null, string | string[] | null] {
  const tag = (field.xpath('name()').get() ?? '').toLowerCase();
  const name = field.xpath('@name').get();
  if (tag === 'textarea') return [name, field.xpath('string()').get() ?? ''];
  if (tag === 'select') {
    const multiple = field.xpath('@multiple').get() !== null;
    const options = field.xpath('descendant::option');
    const selected = field.xpath('descendant::option[@selected]');
    if (multiple) return [name, selected.map((option) => (option.xpath('@value').get() ?? option.xpath('string()').get() ?? '').trim())];
    if (selected.length > 0) return [name, optionValue(selected[0]!)];
    return options.length > 0 ? [name, optionValue(options[0]!)] : [null, null];
  }
  const type = (field.xpath('@type').get() ?? '').toLowerCase();
  if (type === 'checkbox' || type === 'radio') return [name, field.xpath('@value').get() || 'on'];
  return [name, field.xpath('@value').get()];
}

function formFields(form: Selector, formdata: FormData | null, dontClick: boolean, clickdata: Readonly<Record<string, string | number>> | null): Array<[string, string | readonly string[]]> {
  const given = formdata === null ? [] : pairs(formdata);
  const givenNames = new Set(given.map(([name]) => name));
  const values: Array<[string, string | readonly string[]]> = [];
  for (const field of form.xpath(FIELDS)) {
    const [name, value] = fieldValue(field);
    if (name === null || name === '' || givenNames.has(name)) continue;
    values.push([name, value ?? '']);
  }
  if (!dontClick) {
    const clicked = clickable(form, clickdata);
    // Scrapy compares the name with formdata itself: a dict's keys, but a list's (name, value) pairs, so with a list the click is always sent.
    const taken = formdata !== null && !Array.isArray(formdata) && givenNames.has(clicked?.[0] ?? '');
    if (clicked !== null && clicked[0] !== null && !taken) values.push([clicked[0], clicked[1]]);
  }
  for (const [name, value] of given) if (value !== null && value !== undefined) values.push([name, value]);
  return values;
}

function clickable(form: Selector, clickdata: Readonly<Record<string, string | number>> | null): [string | null, string] | null {
  const clickables = form.xpath(CLICKABLES);
  if (clickables.length === 0) return null;
  const pick = (element: Selector): [string | null, string] => [element.xpath('@name').get(), element.xpath('@value').get() || ''];
  if (clickdata === null) return pick(clickables[0]!);
  const nr = clickdata.nr;
  if (typeof nr === 'number') {
    const inputs = form.xpath('descendant::*[self::input or self::select or self::textarea]');
    if (nr >= 0 && nr < inputs.length) return pick(inputs[nr]!);
  }
  const conditions = Object.entries(clickdata).map(([key, value]) => `[@${key}="${String(value)}"]`).join('');
  const found = form.xpath(`.//*${conditions}`);
  if (found.length === 1) return pick(found[0]!);
  if (found.length > 1) throw new FormError(`Multiple elements found matching the criteria in clickdata: ${JSON.stringify(clickdata)}`);
  throw new FormError(`No clickable element matching clickdata: ${JSON.stringify(clickdata)}`);
}
