/**
 * What seine needs of a spider's `static itemSchema`: zod's `safeParse`
 * shape, duck-typed so that seine does not depend on zod (users install it;
 * any library with the same shape works too).
 */
export interface ItemSchemaIssue {
  readonly path: ReadonlyArray<PropertyKey>;
  readonly code: string;
  readonly message: string;
}

export type ItemSchemaResult = { success: true; data: unknown } | { success: false; error: { issues: readonly ItemSchemaIssue[] } };

export interface ItemSchema {
  safeParse(value: unknown): ItemSchemaResult;
}

/** One failed check: the field (dotted path; `(item)` for the item as a whole), zod's issue code and message. */
export interface ValidationIssue {
  field: string;
  code: string;
  message: string;
}

export function isItemSchema(value: unknown): value is ItemSchema {
  return typeof value === 'object' && value !== null && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

/** The item schema a spider class declares, or null; a value that is not one is a mistake worth one clear line. */
export function itemSchemaOf(spiderClass: unknown): ItemSchema | null | 'invalid' {
  const schema = (spiderClass as { itemSchema?: unknown } | null)?.itemSchema;
  if (schema === undefined || schema === null) return null;
  return isItemSchema(schema) ? schema : 'invalid';
}

export function issueField(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? '(item)' : path.map(String).join('.');
}

export function toValidationIssues(issues: readonly ItemSchemaIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({ field: issueField(issue.path ?? []), code: String(issue.code ?? 'invalid'), message: String(issue.message ?? '') }));
}
