/**
 * What kind of value a user passed, asked so that the answer is the same for
 * a value made in another realm. The shell's console evaluates in a vm
 * context with its own RegExp, Array, Object, Date…: `/\d+/` typed there is
 * not `instanceof RegExp` here, and `{ tag: 'x' }` does not have this
 * module's Object.prototype. Node's `util.types` reads the value's internal
 * slots instead, which every realm shares.
 *
 * A file at src/'s root, importing only Node, so that every folder can use it.
 */
import { types } from 'node:util';

export const isRegExp = (value: unknown): value is RegExp => types.isRegExp(value);

export const isDate = (value: unknown): value is Date => types.isDate(value);

export const isMap = (value: unknown): value is Map<unknown, unknown> => types.isMap(value);

export const isSet = (value: unknown): value is Set<unknown> => types.isSet(value);

/** A Buffer, a Uint8Array or any other typed array or DataView. */
export const isBytes = (value: unknown): value is ArrayBufferView => ArrayBuffer.isView(value);

/** An Error of any realm, subclasses included (`class MyError extends Error`). */
export const isError = (value: unknown): value is Error => value instanceof Error || types.isNativeError(value);

/**
 * `{ a: 1 }` or `Object.create(null)`: an object whose prototype is some
 * realm's Object.prototype (the one prototype whose own prototype is null),
 * or none. Arrays, class instances, Maps and the like are not.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || (Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(value) === '[object Object]');
}
