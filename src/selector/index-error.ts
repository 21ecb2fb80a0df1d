import { SeineError } from '../errors/seine-error.js';
import { blameCaller } from '../errors/caller-stack.js';

/** Thrown when a SelectorList is indexed past its end, with Python's wording as parsel users know it. */
export class IndexError extends SeineError {
  static readonly code = 'SEINE_INDEX_ERROR';

  constructor() {
    super('SEINE_INDEX_ERROR', 'list index out of range');
    blameCaller(this, new.target);
  }
}
