import type { Headers } from '../http/headers.js';
import type { Settings } from '../settings/settings.js';
import type { HeaderPairs } from './session.js';

/**
 * The values DefaultHeadersMiddleware (400) and UserAgentMiddleware (500)
 * put on every request before this middleware (640) sees it: a header
 * holding one of them was not the request's own choice, and the session's
 * browser value replaces it. Any other value the request carries wins.
 */
function crawlDefaults(settings: Settings): Map<string, string> {
  const defaults = new Map<string, string>();
  const userAgent = settings.get('USER_AGENT');
  if (typeof userAgent === 'string') defaults.set('user-agent', userAgent);
  const headers = settings.get('DEFAULT_REQUEST_HEADERS');
  if (typeof headers === 'object' && headers !== null) {
    for (const [name, value] of Object.entries(headers as Record<string, unknown>)) if (typeof value === 'string') defaults.set(name.toLowerCase(), value);
  }
  return defaults;
}

const defaultsOf = new WeakMap<Settings, Map<string, string>>();

/**
 * Lays a session's browser header set over `headers`, in the browser's
 * order (the request's other headers after them): a header the request set
 * itself keeps its value, in the browser's place. Returns the names whose
 * value came from the session (`previous`: those it set on an earlier pass,
 * which count as the session's again).
 */
export function applySessionHeaders(headers: Headers, session: HeaderPairs, settings: Settings, previous: readonly string[]): string[] {
  let defaults = defaultsOf.get(settings);
  if (defaults === undefined) defaultsOf.set(settings, (defaults = crawlDefaults(settings)));
  const fromSession = new Set(previous);
  const existing = [...headers.entries()];
  const own = new Map<string, [string, string[]]>();
  for (const [name, values] of existing) {
    const key = name.toLowerCase();
    const isDefault = values.length === 1 && defaults.get(key) === values[0];
    if (!isDefault && !fromSession.has(key)) own.set(key, [name, values]);
  }
  const set: string[] = [];
  for (const [name] of existing) headers.delete(name);
  for (const [name, value] of session) {
    const key = name.toLowerCase();
    const mine = own.get(key);
    if (mine !== undefined) {
      headers.setList(mine[0], mine[1]);
      own.delete(key);
    } else {
      headers.set(name, value);
      set.push(key);
    }
  }
  for (const [key, [name, values]] of existing.map(([name, values]) => [name.toLowerCase(), [name, values]] as const)) {
    if (!headers.has(key)) headers.setList(name, values);
  }
  return set;
}

/** Takes off the headers a session set (applySessionHeaders' names), before the request goes out in another session. */
export function removeSessionHeaders(headers: Headers, names: readonly string[]): void {
  for (const name of names) headers.delete(name);
}
