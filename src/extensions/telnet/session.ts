/**
 * One telnet connection: `Username: ` / `Password: ` prompts, then a
 * JavaScript REPL reading from and writing to the socket. Telnet protocol
 * bytes are stripped on the way in (IacFilter); on the way out every line
 * ends in CRLF, which a telnet client needs and `nc` does not mind.
 */
import { lazyPackage } from '../../errors/lazy-package.js';
import type { REPLServer } from 'node:repl';
import { PassThrough, Writable } from 'node:stream';
import type { Socket } from 'node:net';
import { ECHO, IAC, IacFilter, WILL, WONT } from './iac-filter.js';

/** node:repl, loaded on the first session, not with every crawl (the telnet console is on by default). */
const nodeRepl = lazyPackage<typeof import('node:repl')>('node:repl', 'the telnet console');

const CR = 13;
const LF = 10;
// Credentials longer than this cannot be right; the rest of the line is not kept.
const MAX_CREDENTIAL_BYTES = 1024;
// Input typed ahead during a login check beyond this is dropped.
const MAX_HELD_BYTES = 64 * 1024;

export const CONSOLE_PROMPT = '>>> ';

/** Where the console's helpers (`est()`, `p()`, `console.log`) write: the client's screen. */
export interface ConsoleOutput {
  /** Writes `text` and a newline, like Python's print. */
  print(text: string): void;
  readonly stream: Writable;
}

export interface TelnetSessionOptions {
  /**
   * Checks a login; the console answers a wrong one late (a delay that grows
   * with each failure, docs/security.md), so it resolves when the answer may
   * be given.
   */
  readonly authenticate: (username: string, password: string, stillWanted: () => boolean) => boolean | Promise<boolean>;
  /** Logins a connection may try before it is dropped (TELNETCONSOLE_LOGIN_ATTEMPTS, at least 1). */
  readonly loginAttempts?: number;
  /** Seconds a connection may stay without logging in (TELNETCONSOLE_LOGIN_TIMEOUT; 0: no limit). */
  readonly loginTimeout?: number;
  /** Told when a connection is dropped for its failed logins or its login timeout. */
  readonly onLoginDropped?: (reason: 'attempts' | 'timeout', failures: number) => void;
  /** The names the console holds, built once the client has logged in. */
  readonly vars: (output: ConsoleOutput) => Record<string, unknown>;
  /** Written after a successful login, before the first prompt. */
  readonly banner: string;
}

/** A Writable onto the socket that turns LF into CRLF and ignores a socket already gone. */
function crlfWriter(socket: Socket): Writable {
  let lastWasCr = false;
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let converted = text.replace(/\r?\n/g, '\r\n');
      if (lastWasCr && text.startsWith('\n')) converted = converted.slice(1);
      if (text.length > 0) lastWasCr = text.endsWith('\r');
      if (socket.writable) socket.write(converted);
      callback();
    },
  });
}

export class TelnetSession {
  #phase: 'username' | 'password' | 'checking' | 'console' | 'closed' = 'username';
  #failures = 0;
  #held: Buffer[] = [];
  #heldBytes = 0;
  #loginTimer: NodeJS.Timeout | undefined;
  #line: number[] = [];
  // A line ended with CR: a LF right after it belongs to the same line end.
  #skipLf = false;
  #username = '';
  #input: PassThrough | undefined;
  #repl: REPLServer | undefined;
  readonly #filter: IacFilter;

  constructor(
    private readonly socket: Socket,
    private readonly options: TelnetSessionOptions,
    private readonly onClose: (session: TelnetSession) => void = () => {},
  ) {
    this.#filter = new IacFilter((bytes) => this.#send(bytes));
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('end', () => {
      // Ending the REPL's input makes it exit, which ends the socket.
      if (this.#input !== undefined) this.#input.end();
      else socket.end();
    });
    socket.on('close', () => this.#closed());
    // A client that resets the connection is not the crawl's problem: 'close' follows.
    socket.on('error', () => {});
    const timeout = options.loginTimeout ?? 0;
    if (timeout > 0) {
      this.#loginTimer = setTimeout(() => {
        this.#loginTimer = undefined;
        if (this.#phase === 'console' || this.#phase === 'closed') return;
        this.#phase = 'closed';
        this.options.onLoginDropped?.('timeout', this.#failures);
        this.#send(Buffer.from([IAC, WONT, ECHO]));
        this.socket.end('\r\nLogin timed out\r\n');
        // A client that does not read is not waited for.
        setTimeout(() => this.socket.destroy(), 1000).unref();
      }, timeout * 1000);
      this.#loginTimer.unref();
    }
    socket.write('Username: ');
  }

  /** Failed logins on this connection so far. */
  get failures(): number {
    return this.#failures;
  }

  /** Ends the console and drops the connection (the crawl is closing). */
  close(): void {
    this.#closed();
    this.socket.destroy();
  }

  #send(bytes: Uint8Array): void {
    if (this.socket.writable) this.socket.write(bytes);
  }

  #receive(chunk: Buffer): void {
    this.#process(this.#filter.feed(chunk));
  }

  #hold(bytes: Uint8Array): void {
    // Input typed ahead while a login is checked is kept (bounded) and read after the answer.
    if (this.#heldBytes + bytes.length > MAX_HELD_BYTES) return;
    this.#held.push(Buffer.from(bytes));
    this.#heldBytes += bytes.length;
  }

  #process(data: Uint8Array): void {
    if (this.#phase === 'checking') {
      this.#hold(data);
      return;
    }
    let index = 0;
    while (index < data.length && (this.#phase === 'username' || this.#phase === 'password')) {
      const byte = data[index++] as number;
      if (byte === LF && this.#skipLf) {
        this.#skipLf = false;
        continue;
      }
      this.#skipLf = byte === CR;
      if (byte === CR || byte === LF) this.#endLine();
      else if (this.#line.length < MAX_CREDENTIAL_BYTES) this.#line.push(byte);
    }
    // #endLine may have changed the phase (TypeScript keeps the narrowing of the loop).
    if ((this.#phase as string) === 'checking' && index < data.length) this.#hold(data.subarray(index));
    if (this.#phase !== 'console' || this.#input === undefined || index >= data.length) return;
    let rest = data.subarray(index);
    if (this.#skipLf && rest[0] === LF) rest = rest.subarray(1);
    this.#skipLf = false;
    if (rest.length > 0) this.#input.write(rest);
  }

  #endLine(): void {
    const text = Buffer.from(this.#line).toString('utf8');
    this.#line = [];
    if (this.#phase === 'username') {
      this.#username = text;
      this.#phase = 'password';
      // As Twisted's AuthenticatingTelnetProtocol: WILL ECHO stops a telnet
      // client echoing the password; WONT ECHO afterwards gives echo back.
      this.#send(Buffer.from([IAC, WILL, ECHO]));
      this.socket.write('Password: ');
      return;
    }
    this.#send(Buffer.from([IAC, WONT, ECHO]));
    // What comes while the login is checked is dropped: one answer per attempt.
    this.#phase = 'checking';
    let result: boolean | Promise<boolean>;
    try {
      result = this.options.authenticate(this.#username, text, () => this.#phase === 'checking');
    } catch {
      result = false;
    }
    if (typeof result === 'boolean') {
      this.#answer(result);
      return;
    }
    result.then(
      (ok) => this.#answer(ok),
      () => this.#answer(false),
    );
  }

  #replayHeld(): void {
    if (this.#held.length === 0) return;
    const held = Buffer.concat(this.#held);
    this.#held = [];
    this.#heldBytes = 0;
    this.#process(held);
  }

  #answer(ok: boolean): void {
    if (this.#phase !== 'checking') return;
    if (ok) {
      this.#clearLoginTimer();
      this.socket.write('\r\n');
      this.#startConsole();
      this.#replayHeld();
      return;
    }
    this.#failures += 1;
    this.#line = [];
    if (this.#failures >= Math.max(1, this.options.loginAttempts ?? 1)) {
      this.#phase = 'closed';
      this.options.onLoginDropped?.('attempts', this.#failures);
      this.socket.end('\r\nAuthentication failed\r\n');
      return;
    }
    this.#phase = 'username';
    this.socket.write('\r\nAuthentication failed\r\nUsername: ');
    this.#replayHeld();
  }

  #clearLoginTimer(): void {
    if (this.#loginTimer !== undefined) clearTimeout(this.#loginTimer);
    this.#loginTimer = undefined;
  }

  #startConsole(): void {
    this.#phase = 'console';
    const stream = crlfWriter(this.socket);
    const output: ConsoleOutput = {
      stream,
      print: (text) => {
        stream.write(`${text}\n`);
      },
    };
    const vars = this.options.vars(output);
    stream.write(this.options.banner);
    const input = new PassThrough();
    this.#input = input;
    // terminal: false: seine does not negotiate character mode, so the client
    // edits lines itself and sends them whole; a terminal REPL would echo and
    // redraw each line a second time.
    const repl = nodeRepl();
    const server = repl.start({
      input,
      output: stream,
      prompt: CONSOLE_PROMPT,
      terminal: false,
      useColors: false,
      useGlobal: false,
      ignoreUndefined: true,
    });
    this.#repl = server;
    const define = (): void => {
      for (const [name, value] of Object.entries(vars)) {
        Object.defineProperty(server.context, name, { value, writable: true, configurable: true, enumerable: true });
      }
    };
    define();
    server.on('reset', define);
    server.on('exit', () => {
      if (this.#phase !== 'closed') this.socket.end();
    });
  }

  #closed(): void {
    // Set first: closing the REPL emits 'exit', which must not end the socket again.
    this.#phase = 'closed';
    this.#clearLoginTimer();
    const server = this.#repl;
    this.#repl = undefined;
    server?.close();
    this.onClose(this);
  }
}
