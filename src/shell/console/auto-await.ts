/**
 * `fetch(url)` in the console finishes before the next statement and the
 * next prompt, with no `await` typed — as in Scrapy's shell, where fetch
 * blocks. Each call to the shell's `fetch` that is not inside a function is
 * rewritten to `(await fetch(…))`; the Node REPL then runs the input as
 * top-level-await code. Calls inside functions are left alone (they return
 * a Promise there, as any async function would).
 */
import { parse, type Node } from 'acorn';
import { ancestor } from 'acorn-walk';

const NAMES = new Set(['fetch']);

interface CallNode extends Node {
  callee: Node & { name?: string };
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'MethodDefinition']);

export function addAwaitToFetch(code: string): string {
  if (!/\bfetch\b/.test(code)) return code;
  let program: Node;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, allowReturnOutsideFunction: true });
  } catch {
    return code; // the REPL reports the syntax error (or asks for more lines) on the original
  }
  const calls: CallNode[] = [];
  ancestor(program, {
    CallExpression(node, _state, ancestors) {
      const call = node as CallNode;
      if (call.callee.type !== 'Identifier' || !NAMES.has(call.callee.name ?? '')) return;
      const parents = ancestors.slice(0, -1);
      if (parents.some((a) => FUNCTION_TYPES.has(a.type))) return;
      if (parents.at(-1)?.type === 'AwaitExpression') return;
      calls.push(call);
    },
  });
  let out = code;
  // From the end, so earlier offsets stay valid; nested calls (`fetch(fetch(x))`) are rare and still valid code.
  for (const call of calls.sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, call.start)}(await ${out.slice(call.start, call.end)})${out.slice(call.end)}`;
  }
  return out;
}
