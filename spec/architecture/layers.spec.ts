/**
 * The folders of src/ form layers (docs/architecture.md, "The folders of the
 * crawl"): every folder and root file sits in a row of that table, at most
 * a handful of imports run from a row up to a later one, no import cycle
 * between folders, the contracts at the bottom import no component, the
 * engine imports nothing above the contracts, and only the assemblies
 * import the crawler. Read from src/'s static imports and exports and its
 * `import('./…')` and `createRequire(…)('./…')` loads of relative paths.
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

/**
 * The relative paths a file loads: static `import … from` and `export … from`,
 * and, since a lazy load is a dependency all the same, `import('./…')` and
 * `createRequire(…)('./…')` with a literal path.
 */
function relativeImports(text: string): string[] {
  const patterns = [/^(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gm, /\bimport\(\s*'(\.[^']+)'\s*\)/g, /\bcreateRequire\([^)]*\)\(\s*'(\.[^']+)'\s*\)/g];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!));
}

/** unit → unit → the imports that make the edge. */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(SRC)) {
    for (const path of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), path).replace(/\.js$/, '.ts');
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

/**
 * The rows of docs/architecture.md's folder table, bottom up: each row's
 * layer and the units its folder cell names (`src/http/` → `http/`,
 * `src/index.ts` → `index.ts`). The doc is where the layers are decided;
 * the spec reads it rather than keeping a copy that could drift.
 */
function layerTable(): { layer: string; units: string[] }[] {
  const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
  const section = doc.split('\n## The folders of the crawl\n')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| layer |'))
    .map((line) => {
      const [layer = '', folders = ''] = line.split(' | ').map((cell) => cell.replace(/^\| /, '').replace(/\*/g, ''));
      return { layer, units: [...folders.matchAll(/`src\/([^`]+)`/g)].map((match) => match[1]!) };
    });
}

const table = layerTable();
/** unit → its row's index in the table (0 = foundations). */
const rowOf = new Map(table.flatMap(({ units }, row) => units.map((unit) => [unit, row] as const)));

/** The imports that run from a unit up to a unit of a later row, as `from → to (file → file, …)`. */
function upwardImports(): string[] {
  return [...graph].flatMap(([from, edges]) =>
    [...edges].filter(([to]) => (rowOf.get(to) ?? -1) > (rowOf.get(from) ?? Infinity)).map(([to, files]) => `${from} → ${to} (${files.join(', ')})`),
  );
}

describe('the folders of src/ form layers', () => {
  it('places every folder and root file of src/ in exactly one row of the folder table in docs/architecture.md', () => {
    expect(table.map(({ layer }) => layer)).toEqual(['foundations', 'contracts', 'components', 'engine', 'assembly', 'public entries']);
    const placed = table.flatMap(({ units }) => units);
    const units = [...new Set(sourceFiles(SRC).map(unitOf))].sort();
    expect([...placed].sort()).toEqual(units);
  });

  it('has at most 5 imports running from a row of the table up to a later one', () => {
    const upward = upwardImports();
    expect(upward.length <= 5 ? [] : upward).toEqual([]);
  });

  it('keeps the error registry at the entries: only seine (index.ts) imports it', () => {
    const importers = [...graph].filter(([, edges]) => edges.has('error-registry.ts')).map(([unit]) => unit);
    expect(importers).toEqual(['index.ts']);
  });

  it('the shell does not load the package entry: the command that opens a console hands it the seine module', () => {
    expect(importsOf('shell/')).not.toContain('index.ts');
  });

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
    expect(importers).toEqual(['cli/', 'error-registry.ts', 'index.ts', 'shell/']);
  });
});
