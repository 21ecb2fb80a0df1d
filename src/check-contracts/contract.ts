/**
 * Spider contracts, as Scrapy's: a line `@name args…` in a callback's doc
 * comment stands for a Contract. Before the check runs, each contract may
 * change the request made for the callback (adjustRequestArgs); when the
 * response arrives, each may look at it (preProcess) and at everything the
 * callback produced (postProcess). Throwing ContractFail (or an assertion
 * error) is a failure; any other error is an error in the check.
 */
import type { Callback, Request, RequestOptions } from '../http/request.js';
import type { Response } from '../http/response.js';
import { SeineError } from '../errors/seine-error.js';
import { ownStaticName } from '../contracts/spider-brand.js';

/** What the request for a tested callback is made from: Request's options plus its URL. */
export interface ContractRequestArgs extends RequestOptions {
  url?: string;
  callback: Callback;
  dontFilter: boolean;
}

/** The class of request a contract asks for (Scrapy's `request_cls`): Request or a subclass. */
export type ContractRequestClass = new (url: string, options?: RequestOptions) => Request;

/** A contract's expectation not met: counted as a failure, its message shown as the reason. */
export class ContractFail extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractFail';
  }
}

/**
 * A contract could not be set up for a callback (an unknown `@name`, wrong
 * arguments, no `@url`): reported as an error of that callback's check.
 */
export class ContractError extends SeineError {
  static readonly code = 'SEINE_CONTRACT';
  constructor(message: string) {
    super(ContractError.code, message);
  }
}

export abstract class Contract {
  /**
   * Set on a subclass the request class its requests are made with (Scrapy's
   * `request_cls`), e.g. `static requestClass = FormRequest`; the last
   * contract of a callback that sets one wins.
   */
  static requestClass?: ContractRequestClass;

  /** The name of the callback under test. */
  readonly methodName: string;
  /** The words after `@name` on the contract's line. */
  readonly args: readonly string[];

  constructor(methodName: string, args: readonly string[]) {
    this.methodName = methodName;
    this.args = args;
  }

  /** Changes what the callback's request is made from (its URL, meta, cbKwargs…). */
  adjustRequestArgs(args: ContractRequestArgs): ContractRequestArgs {
    return args;
  }

  /** Looks at the response before the callback runs. */
  preProcess?(response: Response): void | Promise<void>;

  /** Looks at everything the callback produced: items and requests, in order. */
  postProcess?(output: readonly unknown[]): void | Promise<void>;
}

export type ContractClass = (new (methodName: string, args: readonly string[]) => Contract) & { requestClass?: ContractRequestClass };

/** The `@name` a contract class answers to: its own `static name = '…'`, or null when it has none. */
export function contractName(cls: unknown): string | null {
  return ownStaticName(cls);
}

/** True for an expectation not met (ContractFail, node:assert's AssertionError), as unittest counts failures. */
export function isContractFailure(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return error instanceof ContractFail || name === 'ContractFail' || name === 'AssertionError';
}
