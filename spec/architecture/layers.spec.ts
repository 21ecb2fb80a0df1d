/**
 * The folders of src/ form layers (docs/architecture.md, "The folders"): no
 * import cycle between folders, the contracts at the bottom import no
 * component, the engine imports nothing above the contracts, and only the
 * assemblies import the crawler. Read from the import statements of src/.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** A file's layer: its top folder under src/, or the file itself (`index.ts`) for the files at src/'s root. */
function unitOf(path: string): string {
  const parts = relative(SRC, path).split('/');
  return parts.length > 1 ? `${parts[0]!}/` : parts[0]!;
}

/** unit → unit → the imports that make the edge (static `import … from` and `export … from`). */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gm)) {
      const target = resolve(dirname(file), match[1]!).replace(/\.js$/, '.ts');
      const [from, to] = [unitOf(file), unitOf(target)];
      if (from === to) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      edges.set(to, [...(edges.get(to) ?? []), `${relative(SRC, file)} → ${relative(SRC, target)}`]);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Every cycle's edges, found by a depth-first search (empty when the folders form layers). */
function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (unit: string): void => {
    state.set(unit, 'open');
    path.push(unit);
    for (const next of graph.get(unit)?.keys() ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(unit, 'done');
  };
  for (const unit of graph.keys()) if (!state.has(unit)) visit(unit);
  return found;
}

const graph = folderGraph();
const importsOf = (unit: string): string[] => [...(graph.get(unit)?.keys() ?? [])].sort();

describe('the folders of src/ form layers', () => {
  it('has no import cycle between folders', () => {
    expect(cycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('contracts (component interfaces, Crawler, events, control flow, Spider) import only the foundations below them', () => {
    expect(importsOf('contracts/')).toEqual(['errors/', 'http/', 'log/', 'settings/', 'throttle/']);
  });

  it('the engine (the stages beside the chains they drive) imports only the contracts and the foundations under them', () => {
    expect(importsOf('engine/')).toEqual(['contracts/', 'http/', 'settings/']);
  });

  it('the engine is imported only by the crawler and by seine/operators', () => {
    const importers = [...graph].filter(([, edges]) => edges.has('engine/')).map(([unit]) => unit).sort();
    expect(importers).toEqual(['crawler/', 'operators/']);
  });

  it('settings import no component (feeds, middlewares): the bottom knows nothing above it', () => {
    // value-kinds.ts and version.ts are leaves at src/'s root that import only Node.
    expect(importsOf('settings/')).toEqual(['errors/', 'value-kinds.ts', 'version.ts']);
  });

  it('python/ (Python\'s text forms, shared from dom/ up to the feeds) imports nothing of src/', () => {
    expect(importsOf('python/')).toEqual([]);
  });

  it('only the assemblies import the crawler: the CLI, the shell and the package entry', () => {
    const importers = [...graph].filter(([, edges]) => edges.has('crawler/')).map(([unit]) => unit).sort();
    expect(importers).toEqual(['cli/', 'errors.ts', 'index.ts', 'shell/']);
  });
});
