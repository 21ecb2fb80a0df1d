/**
 * libxml2's boolean attributes (htmlIsBooleanAttr): written without a value
 * they take their own name as value, and lxml serializes them bare.
 */
export const BOOLEAN_ATTRIBUTES: ReadonlySet<string> = new Set([
  'checked', 'compact', 'declare', 'defer', 'disabled', 'ismap', 'multiple', 'nohref', 'noresize', 'noshade', 'nowrap', 'readonly', 'selected',
]);
