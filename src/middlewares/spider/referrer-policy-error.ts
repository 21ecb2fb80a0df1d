import { SeineError } from '../../errors/seine-error.js';

/** REFERRER_POLICY names no known policy (Scrapy raises a RuntimeError here). */
export class ReferrerPolicyError extends SeineError {
  static readonly code = 'SEINE_BAD_REFERRER_POLICY';
  readonly policy: unknown;

  constructor(policy: unknown, knownNames: readonly string[]) {
    super(
      ReferrerPolicyError.code,
      `Could not load referrer policy ${describe(policy)} from REFERRER_POLICY: ` +
        `use one of ${knownNames.map((name) => `'${name}'`).join(', ')}, ` +
        'or an object (or class) with a referrer(responseUrl, requestUrl) method',
    );
    this.policy = policy;
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}
