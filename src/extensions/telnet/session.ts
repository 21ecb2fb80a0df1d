/**
 * One telnet connection: `Username: ` / `Password: ` prompts, then a
 * JavaScript REPL reading from and writing to the socket. Telnet protocol
 * bytes are stripped on the way in (IacFilter); on the way out every line
 * ends in CRLF, which a telnet client needs and `nc` does not mind.
 */
import repl, { type REPLServer } from 'node:repl';
import { PassThrough, Writable } from 'node:stream';
import type { Socket } from 'node:net';
import { ECHO, IAC, IacFilter, WILL, WONT } from './iac-filter.js';

const CR = 13;
const LF = 10;
// Credentials longer than this cannot be right; the rest of the line is not kept.
const MAX_CREDENTIAL_BYTES = 1024;

export const CONSOLE_PROMPT = '>>> ';

/** Where the console's helpers (`est()`, `p()`, `console.log`) write: the client's screen. */
export interface ConsoleOutput {
  /** Writes `text` and a newline, like Python's print. */
  print(text: string): void;
  readonly stream: Writable;
}

export interface TelnetSessionOptions {
  readonly authenticate: (username: string, password: string) => boolean;
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
  #phase: 'username' | 'password' | 'console' | 'closed' = 'username';
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
    socket.write('Username: ');
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
    const data = this.#filter.feed(chunk);
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
    if (!this.options.authenticate(this.#username, text)) {
      this.#phase = 'closed';
      this.socket.end('\r\nAuthentication failed\r\n');
      return;
    }
    this.socket.write('\r\n');
    this.#startConsole();
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
    const server = this.#repl;
    this.#repl = undefined;
    server?.close();
    this.onClose(this);
  }
}
