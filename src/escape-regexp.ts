/**
 * `text` as a RegExp pattern that matches it literally: a backslash before
 * each character that is special in a pattern, `. * + ? ^ $ { } ( ) | [ ] \`,
 * and before no other. That is valid with and without the `u` and `v` flags
 * (under `u`, an escaped `-` or `/` outside a class is a SyntaxError), for
 * use outside a character class: inside `[...]`, `-` would need escaping too.
 *
 * A file at src/'s root, importing nothing, so that every folder can use it.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
