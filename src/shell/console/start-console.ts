/**
 * The console itself: a Node REPL whose context holds the shell's objects.
 * Both consoles evaluate with the REPL's own evaluator (top-level await,
 * multi-line input, completion); the `ts` one first compiles each input from
 * TypeScript. In both, a `fetch(…)` call finishes before the next statement
 * runs (auto-await.ts), and a seine error prints as one line.
 *
 * With a terminal: prompt, line editing, completion, history
 * (~/.seine_history for `ts`, Node's ~/.node_repl_history for `node`).
 * Without one (piped input): no prompt; lines are evaluated one after the
 * other — each waits for the one before, fetches included — until the end
 * of input, so the shell can be scripted.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import repl, { type REPLServer } from 'node:repl';
import { inspect } from 'node:util';
import { addAwaitToFetch } from './auto-await.js';
import { importsToConsole } from './console-imports.js';
import type { ConsoleKind } from './choose-console.js';
import { lineSource } from './line-source.js';
import { transformTypeScript } from './ts-transform.js';
import { seineModuleUrl } from '../../package-root.js';

export interface ConsoleOptions {
  readonly kind: ConsoleKind;
  /** The shell's objects; the console reads and writes them through (so fetch's updates show). */
  readonly vars: Record<string, unknown>;
  /** Printed before the first prompt (the `[s]` lines); null for none (`seine shell -c`). */
  readonly banner: string | null;
  /** Print a string result as it is, without quotes (`seine shell -c`, like Scrapy's print()). */
  readonly plainStrings?: boolean;
  readonly input?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly output?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Where the banner goes when the input is piped (stderr, so stdout carries only results). */
  readonly pipedBannerOutput?: NodeJS.WritableStream;
  /** The history file, or null for none (only kept with a terminal). */
  readonly historyFile: string | null;
}

/**
 * Piped input has no prompt, but the REPL still writes its continuation
 * prompt (`... `) for multi-line input: drop writes made of nothing else, so
 * standard output carries only results.
 */
function withoutPrompts(output: NodeJS.WritableStream): NodeJS.WritableStream {
  const filtered = new PassThrough();
  filtered.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (!/^(?:\.+ ?)?$/.test(text)) output.write(text);
  });
  return filtered;
}

/** `ts` keeps its history in ~/.seine_history; `node` where the Node REPL keeps its own. */
export function historyFileFor(kind: ConsoleKind, env: Readonly<Record<string, string | undefined>>): string {
  if (kind === 'ts') return join(homedir(), '.seine_history');
  return env['NODE_REPL_HISTORY'] || join(homedir(), '.node_repl_history');
}

// The running copy's sub-path modules, so `import … from 'seine/shell'` in the console gets the same classes.
const SEINE_MODULES = { 'seine/shell': seineModuleUrl('shell'), 'seine/operators': seineModuleUrl('operators') };

type EvalCallback = (error: Error | null, result?: unknown) => void;

/**
 * A seine error (code SEINE_…): one line, no stack — the message says what
 * to do. Used for errors the REPL hands back and, through the writer, for
 * those it prints itself (a rejection in top-level-await code).
 */
function seineErrorLine(error: unknown): string | null {
  const e = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.code !== 'string') return null;
  // A module an import names is not installed: Node's stack says nothing more than its message.
  if (e.code === 'ERR_MODULE_NOT_FOUND') return `${String(e.name)}: ${String(e.message)} (install it in this folder, or start the shell where it is installed)`;
  if (!e.code.startsWith('SEINE_')) return null;
  return `${String(e.name)}: ${String(e.message)}`;
}

function installEval(server: REPLServer, kind: ConsoleKind, output: NodeJS.WritableStream): void {
  const defaultEval = server.eval;
  // Replacing the evaluator after start keeps the REPL's own (top-level await, recoverable errors).
  (server as { eval: REPLServer['eval'] }).eval = (code: string, context: object, file: string, callback: EvalCallback) => {
    let js = code;
    if (kind === 'ts') {
      const compiled = transformTypeScript(code);
      if (compiled.kind === 'incomplete') return callback(new repl.Recoverable(new SyntaxError('Unexpected end of input')));
      if (compiled.kind === 'error') {
        const error = new SyntaxError(compiled.message);
        error.stack = `SyntaxError: ${compiled.message}`;
        return callback(error);
      }
      js = compiled.code;
    }
    js = addAwaitToFetch(importsToConsole(js, SEINE_MODULES));
    defaultEval.call(server, js, context as never, file, (error: Error | null, result?: unknown) => {
      const line = error === null ? null : seineErrorLine(error);
      if (line !== null) {
        output.write(`${line}\n`);
        return callback(null, undefined);
      }
      callback(error, result);
    });
  };
}

/** Shares the shell's objects with the REPL context, both ways. */
function exposeVars(server: REPLServer, vars: Record<string, unknown>): void {
  for (const name of Object.keys(vars)) {
    Object.defineProperty(server.context, name, {
      get: () => vars[name],
      set: (value: unknown) => {
        vars[name] = value;
      },
      enumerable: true,
      configurable: true,
    });
  }
  const leave = (): void => server.close();
  Object.defineProperty(server.context, 'quit', { value: leave, writable: true, configurable: true });
  Object.defineProperty(server.context, 'exit', { value: leave, writable: true, configurable: true });
}

export interface ConsoleOutcome {
  /** Inputs that ended in an error (a syntax error, an exception, a rejected await). */
  readonly errors: number;
}

/** Opens the console; resolves when the user leaves it (Ctrl-D, quit(), exit(), .exit, end of input). */
export async function runConsole(options: ConsoleOptions): Promise<ConsoleOutcome> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const terminal = input.isTTY === true && output.isTTY === true;
  const feed = terminal ? null : new PassThrough();
  const replOutput = terminal ? output : withoutPrompts(output);

  if (options.banner !== null) (terminal ? output : options.pipedBannerOutput ?? output).write(`${options.banner}\n`);
  const server = repl.start({
    prompt: terminal ? (options.kind === 'ts' ? 'seine> ' : '> ') : '',
    input: feed ?? input,
    output: replOutput,
    terminal,
    useColors: terminal,
    ignoreUndefined: true,
    preview: false,
    writer: (value: unknown) =>
      options.plainStrings === true && typeof value === 'string' ? value : seineErrorLine(value) ?? inspect(value, { colors: terminal, showProxy: false, depth: 4 }),
  });
  // Every error the REPL reports passes its domain (thrown, rejected, syntax): count them for the exit status of `-c`.
  let errors = 0;
  (server as unknown as { _domain?: NodeJS.EventEmitter })._domain?.on('error', () => errors++);
  installEval(server, options.kind, output);
  exposeVars(server, options.vars);
  // The REPL closes on the next tick; piped lines after quit() must not be evaluated meanwhile.
  let open = true;
  const closeServer = server.close.bind(server);
  server.close = () => {
    open = false;
    closeServer();
  };
  const closed = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  if (terminal && options.historyFile !== null) {
    await new Promise<void>((resolve) => server.setupHistory(options.historyFile!, () => resolve()));
  }

  if (feed !== null) {
    // One line at a time: the next line is written only when the REPL shows its (empty) prompt again.
    let ready: (() => void) | null = null;
    const displayPrompt = server.displayPrompt.bind(server);
    server.displayPrompt = (preserveCursor?: boolean) => {
      displayPrompt(preserveCursor);
      ready?.();
    };
    void closed.then(() => {
      open = false;
      ready?.();
    });
    const lines = lineSource(input);
    while (open) {
      const line = await lines.next();
      if (line === null || !open) break;
      const shown = new Promise<void>((resolve) => (ready = resolve));
      feed.write(`${line}\n`);
      await shown;
    }
    if (open) server.close();
  }
  await closed;
  if (terminal) (input as NodeJS.ReadStream).setRawMode?.(false);
  input.pause();
  return { errors };
}
