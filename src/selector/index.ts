export { Selector, isSelector, type SelectorOptions, type SelectorRoot, type SelectorType, type XPathOptions } from './selector.js';
export { SelectorList } from './selector-list.js';
export { IndexError } from './index-error.js';
export { BadArgumentError } from './bad-argument-error.js';
