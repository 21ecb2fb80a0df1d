/**
 * `import { Selector } from 'seine'` typed (or pasted) into a console: the
 * Node REPL refuses static imports, so each top-level import declaration
 * becomes a declaration of the same names taken from the module — `seine`
 * itself for 'seine' (the running copy, the one the shell's objects come
 * from), the running copy's sub-paths for 'seine/shell' and
 * 'seine/operators', and a dynamic import for anything else (resolved from
 * the current folder, as the REPL resolves `import()`).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, type Node } from 'acorn';

interface Specifier extends Node {
  local: { name: string };
  imported?: { name?: string; value?: string };
}

interface ImportNode extends Node {
  specifiers: Specifier[];
  source: { value: string };
}

/** The running seine's modules, by import specifier: 'seine' is the console's `seine` object. */
export interface SeineModules {
  readonly [specifier: string]: string;
}

/**
 * A package as the current folder's code would get it (its node_modules),
 * else as seine gets it (`rxjs` works in a project without node_modules),
 * else the name as written, for the REPL's own `import()` to report.
 */
function resolvePackage(source: string, cwd: string): string {
  if (/^(?:node:|\.{0,2}\/|[a-z]+:)/.test(source)) return source;
  try {
    return pathToFileURL(createRequire(join(cwd, 'console.js')).resolve(source)).href;
  } catch {
    try {
      return import.meta.resolve(source);
    } catch {
      return source;
    }
  }
}

function moduleExpression(source: string, modules: SeineModules, cwd: string): string {
  if (source === 'seine') return 'seine';
  const url = modules[source] ?? resolvePackage(source, cwd);
  return `(await import(${JSON.stringify(url)}))`;
}

function declaration(node: ImportNode, modules: SeineModules, cwd: string): string {
  const module = moduleExpression(node.source.value, modules, cwd);
  if (node.specifiers.length === 0) return `${module};`;
  const parts: string[] = [];
  const named: string[] = [];
  for (const spec of node.specifiers) {
    if (spec.type === 'ImportNamespaceSpecifier') parts.push(`var ${spec.local.name} = ${module};`);
    else if (spec.type === 'ImportDefaultSpecifier') parts.push(`var ${spec.local.name} = ${module}.default;`);
    else {
      const imported = spec.imported?.name ?? JSON.stringify(spec.imported?.value ?? spec.local.name);
      named.push(imported === spec.local.name ? imported : `${imported}: ${spec.local.name}`);
    }
  }
  // `var`, not `const`: typing the same import twice in a session must not fail.
  if (named.length > 0) parts.push(`var { ${named.join(', ')} } = ${module};`);
  return parts.join(' ');
}

export function importsToConsole(code: string, modules: SeineModules, cwd: string = process.cwd()): string {
  if (!/\bimport\b/.test(code)) return code;
  let program: { body: Node[] };
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true }) as unknown as { body: Node[] };
  } catch {
    return code; // not an import the REPL would refuse (or not valid code: the REPL says so)
  }
  const imports = program.body.filter((node): node is ImportNode => node.type === 'ImportDeclaration');
  let out = code;
  for (const node of imports.sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, node.start)}${declaration(node, modules, cwd)}${out.slice(node.end)}`;
  }
  return out;
}
