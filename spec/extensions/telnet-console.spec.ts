import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Subject } from 'rxjs';
import { NotConfigured } from '../../src/contracts/control-flow.js';
import type { ComponentClass, Extension } from '../../src/contracts/components.js';
import type { Crawler, StatsCollector } from '../../src/contracts/crawler.js';
import type { CrawlEvent } from '../../src/contracts/events.js';
import {
  TELNET_LOGGER,
  TelnetConsole,
  TelnetHostError,
  TelnetPortError,
  loginDelayAfter,
  type TelnetConsoleOptions,
  type TelnetEngineAccess,
} from '../../src/extensions/telnet-console.js';
import { formatEngineStatus, formatLiveRefs } from '../../src/extensions/telnet/engine-status.js';
import { DO, DONT, ECHO, IAC, IacFilter, SB, SE, WILL, WONT } from '../../src/extensions/telnet/iac-filter.js';
import { isLoopbackHost } from '../../src/extensions/telnet/listen.js';
import { LogBus, type LogEvent } from '../../src/log/index.js';
import { Settings, type SettingsInput } from '../../src/settings/index.js';
import { Spider } from '../../src/contracts/spider.js';
import { Signals } from '../../src/contracts/signals.js';

const TIME = new Date(2024, 0, 2, 3, 4, 5);
const NAWS = 31;
const NOP = 241;
const BANNER = 'seine telnet console: type help for the objects, est() for the engine status, .exit to leave\r\n';
const PROMPT = '>>> ';

// ---------------------------------------------------------------- helpers

const consoles: TelnetConsole[] = [];
const servers: Server[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(consoles.splice(0).map((telnet) => telnet.stop()));
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function makeConsole(options: TelnetConsoleOptions = {}): TelnetConsole {
  const telnet = new TelnetConsole({ portRange: [0], password: 'secret', ...options });
  consoles.push(telnet);
  return telnet;
}

function track(telnet: TelnetConsole): TelnetConsole {
  consoles.push(telnet);
  return telnet;
}

function recordLogs(bus: LogBus): LogEvent[] {
  const events: LogEvent[] = [];
  bus.events$.subscribe((event) => events.push(event));
  return events;
}

/** A TCP client that keeps every byte the server sent (decoded 1:1 as latin1, so IAC bytes stay visible). */
class Client {
  #received = Buffer.alloc(0);
  #cursor = 0;
  #waiters: Array<() => void> = [];
  readonly closed: Promise<void>;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#received = Buffer.concat([this.#received, chunk]);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.on('close', () => {
      resolve();
      for (const wake of this.#waiters.splice(0)) wake();
    }));
  }

  static async connect(port: number): Promise<Client> {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new Client(socket);
  }

  /** Everything received so far. */
  get bytes(): Buffer {
    return this.#received;
  }

  send(data: string | Uint8Array): void {
    this.socket.write(data);
  }

  /** The text received since the last read, up to and including `needle` (waits up to 3 s for it). */
  async readUntil(needle: string): Promise<string> {
    const deadline = Date.now() + 3000;
    for (;;) {
      const text = this.#received.toString('latin1');
      const at = text.indexOf(needle, this.#cursor);
      if (at >= 0) {
        const read = text.slice(this.#cursor, at + needle.length);
        this.#cursor = at + needle.length;
        return read;
      }
      if (this.socket.destroyed || Date.now() > deadline) {
        throw new Error(`never received ${JSON.stringify(needle)}; got ${JSON.stringify(text.slice(this.#cursor))}`);
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** Logs in and reads up to the first prompt. */
  async login(username: string, password: string): Promise<void> {
    await this.readUntil('Username: ');
    this.send(`${username}\r\n`);
    await this.readUntil('Password: ');
    this.send(`${password}\r\n`);
    await this.readUntil(PROMPT);
  }

  /** Sends one line of JavaScript and returns the output before the next prompt. */
  async evaluate(line: string): Promise<string> {
    this.send(`${line}\r\n`);
    const read = await this.readUntil(PROMPT);
    return read.slice(0, -PROMPT.length);
  }
}

async function listenOn(port: number): Promise<Server> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

/** A port taken by another server, such that the next port is free. */
async function takenPortWithFreeNext(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const blocker = await listenOn(0);
    const port = (blocker.address() as AddressInfo).port;
    if (port === 65535) continue;
    try {
      const probe = await listenOn(port + 1);
      await new Promise((resolve) => probe.close(resolve));
      servers.splice(servers.indexOf(probe), 1);
      return port;
    } catch {
      // the next port is busy too; take another
    }
  }
  throw new Error('no port pair found');
}

class MemoryStats implements StatsCollector {
  readonly #values: Record<string, unknown> = {};
  get(key: string): unknown {
    return this.#values[key];
  }
  set(key: string, value: unknown): void {
    this.#values[key] = value;
  }
  inc(key: string, by = 1): void {
    this.#values[key] = Number(this.#values[key] ?? 0) + by;
  }
  max(key: string, value: number): void {
    this.#values[key] = Math.max(Number(this.#values[key] ?? value), value);
  }
  min(key: string, value: number): void {
    this.#values[key] = Math.min(Number(this.#values[key] ?? value), value);
  }
  getAll(): Record<string, unknown> {
    return { ...this.#values };
  }
}

class QuotesSpider extends Spider {
  static override name = 'quotes';
}

function fakeCrawler(values: SettingsInput = {}, bus = new LogBus({ now: () => TIME })): Crawler {
  const settings = new Settings({ TELNETCONSOLE_PORT: [0], ...values });
  settings.freeze();
  return {
    settings,
    stats: new MemoryStats(),
    logBus: bus,
    events$: new Subject<CrawlEvent>().asObservable(),
    spider: new QuotesSpider(),
    emit: jest.fn(),
    close: jest.fn(),
    signals: new Signals(),
    pause: jest.fn(),
    resume: jest.fn(),
    engine: { crawl: jest.fn(), download: jest.fn<Crawler['engine']['download']>() },
  };
}

const ENGINE_ACCESS: TelnetEngineAccess = {
  engine: { running: true, inFlight: 3 },
  engineStatus: () => [
    ['time()-engine.startTime', 12.5],
    ['engine.downloader.active.size', 3],
    ['engine.scraper.isIdle()', false],
    ['engine.spider.name', 'quotes'],
  ],
};

// ---------------------------------------------------------------- tests

describe('TelnetConsole: password and listening log lines', () => {
  it('logs a random 16-hex-digit password, then the address once listening', async () => {
    const bus = new LogBus({ now: () => TIME });
    const events = recordLogs(bus);
    const telnet = track(TelnetConsole.fromCrawler(fakeCrawler({}, bus)));
    expect(telnet.password).toMatch(/^[0-9a-f]{16}$/);
    expect(events).toEqual([{ time: TIME, logger: 'seine.extensions.telnet', level: 'INFO', message: `Telnet Password: ${telnet.password}` }]);
    const { host, port } = await telnet.start();
    expect(host).toBe('127.0.0.1');
    expect(events[1]).toEqual({ time: TIME, logger: TELNET_LOGGER, level: 'INFO', message: `Telnet console listening on 127.0.0.1:${port}` });
    expect(events).toHaveLength(2);
  });

  it('makes a different password for each console', () => {
    const first = makeConsole({ password: null });
    const second = makeConsole({ password: '' });
    expect(first.password).not.toBe(second.password);
  });

  it('does not log a password that was set', () => {
    const bus = new LogBus({ now: () => TIME });
    const events = recordLogs(bus);
    const telnet = track(TelnetConsole.fromCrawler(fakeCrawler({ TELNETCONSOLE_PASSWORD: 'hunter2' }, bus)));
    expect(telnet.password).toBe('hunter2');
    expect(events).toEqual([]);
  });
});

describe('TelnetConsole.fromCrawler', () => {
  it('fits the extension contract the engine builds components from', () => {
    const component: ComponentClass<Extension> = TelnetConsole;
    expect(typeof component.fromCrawler).toBe('function');
    // @ts-expect-error engineStatus rows hold strings, numbers or booleans only
    void new TelnetConsole({ engineStatus: () => [['x', null]] });
  });

  it('throws NotConfigured when TELNETCONSOLE_ENABLED is false', () => {
    const crawler = fakeCrawler({ TELNETCONSOLE_ENABLED: false });
    expect(() => TelnetConsole.fromCrawler(crawler)).toThrow(NotConfigured);
    expect(() => TelnetConsole.fromCrawler(fakeCrawler({ TELNETCONSOLE_ENABLED: 'False' }))).toThrow('TELNETCONSOLE_ENABLED is false');
  });

  it('reads host, port range, username and password from the settings', () => {
    const telnet = track(TelnetConsole.fromCrawler(fakeCrawler({
      TELNETCONSOLE_HOST: '127.0.0.2',
      TELNETCONSOLE_PORT: '7000,7010',
      TELNETCONSOLE_USERNAME: 'admin',
      TELNETCONSOLE_PASSWORD: 'pw',
    })));
    expect([telnet.host, telnet.portRange, telnet.username, telnet.password]).toEqual(['127.0.0.2', [7000, 7010], 'admin', 'pw']);
  });

  it("defaults to Scrapy's range [6023, 6073] and user 'seine' on 127.0.0.1", () => {
    const telnet = makeConsole({ portRange: undefined });
    expect([telnet.host, telnet.portRange, telnet.username]).toEqual(['127.0.0.1', [6023, 6073], 'seine']);
    const defaults = new Settings();
    const fromSettings = track(TelnetConsole.fromCrawler({ ...fakeCrawler(), settings: defaults }));
    expect([fromSettings.host, fromSettings.portRange, fromSettings.username]).toEqual(['127.0.0.1', [6023, 6073], 'seine']);
  });

  it('refuses a TELNETCONSOLE_HOST that is not loopback', () => {
    expect(() => TelnetConsole.fromCrawler(fakeCrawler({ TELNETCONSOLE_HOST: '0.0.0.0' }))).toThrow(TelnetHostError);
  });
});

describe('TelnetConsole: host and port range checks', () => {
  it('refuses non-loopback hosts with a message that says why and what to do', () => {
    let error: unknown;
    try {
      makeConsole({ host: '192.168.1.10' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TelnetHostError);
    expect((error as TelnetHostError).code).toBe('SEINE_TELNET_HOST');
    expect(TelnetHostError.code).toBe('SEINE_TELNET_HOST');
    expect((error as Error).message).toBe(
      "TELNETCONSOLE_HOST must be a loopback address (127.0.0.1, ::1 or localhost), got '192.168.1.10': " +
        'the telnet console runs any JavaScript it receives, so seine only listens on loopback; ' +
        'use an SSH tunnel to reach it from another machine, or set TELNETCONSOLE_ENABLED=false',
    );
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['example.com', false],
    ['', false],
  ])('isLoopbackHost(%j) is %j', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it.each([
    [[6023, 6030, 6040], 'TELNETCONSOLE_PORT must be one port or a [first, last] range, got [6023, 6030, 6040]: use [port], [first, last] or [0] for any free port'],
    [[70000], 'TELNETCONSOLE_PORT holds 70000, which is not a port number (0-65535), in [70000]: use [port], [first, last] or [0] for any free port'],
    [[6023.5], 'TELNETCONSOLE_PORT holds 6023.5, which is not a port number (0-65535), in [6023.5]: use [port], [first, last] or [0] for any free port'],
    [[6073, 6023], 'TELNETCONSOLE_PORT range [6073, 6023] ends before it starts: write it as [first, last] with first <= last'],
  ])('refuses the port range %j', (portRange, message) => {
    expect(() => makeConsole({ portRange })).toThrow(new TelnetPortError(message));
  });

  it('takes any free port for [] and [0]', async () => {
    const first = await makeConsole({ portRange: [] }).start();
    const second = await makeConsole({ portRange: [0] }).start();
    expect(first.port).toBeGreaterThan(0);
    expect(second.port).toBeGreaterThan(0);
    expect(first.port).not.toBe(second.port);
  });
});

describe('TelnetConsole: listening on a port range', () => {
  it('falls back to the next port of the range when the first is taken', async () => {
    const taken = await takenPortWithFreeNext();
    const address = await makeConsole({ portRange: [taken, taken + 1] }).start();
    expect(address).toEqual({ host: '127.0.0.1', port: taken + 1 });
    const client = await Client.connect(taken + 1);
    expect(await client.readUntil('Username: ')).toBe('Username: ');
  });

  it('listens on the one port given', async () => {
    const taken = await takenPortWithFreeNext();
    const address = await makeConsole({ portRange: [taken + 1] }).start();
    expect(address.port).toBe(taken + 1);
  });

  it('fails with a clear message when the only port is taken', async () => {
    const taken = await takenPortWithFreeNext();
    const failure = await makeConsole({ portRange: [taken] }).start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TelnetPortError);
    expect((failure as Error).message).toBe(
      `Telnet console could not listen on 127.0.0.1: port ${taken} is in use or not permitted; ` +
        'set TELNETCONSOLE_PORT to a free range ([0] takes any free port) or TELNETCONSOLE_ENABLED=false',
    );
    expect((failure as Error).cause).toMatchObject({ code: 'EADDRINUSE' });
  });

  it('fails with a clear message when every port of the range is taken, and can start once one frees', async () => {
    const taken = await takenPortWithFreeNext();
    const second = await listenOn(taken + 1);
    const telnet = makeConsole({ portRange: [taken, taken + 1] });
    const failure = await telnet.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TelnetPortError);
    expect((failure as TelnetPortError).code).toBe('SEINE_TELNET_PORT');
    expect((failure as Error).message).toBe(
      `Telnet console could not listen on 127.0.0.1: every port from ${taken} to ${taken + 1} is in use or not permitted; ` +
        'set TELNETCONSOLE_PORT to a free range ([0] takes any free port) or TELNETCONSOLE_ENABLED=false',
    );
    await new Promise((resolve) => second.close(resolve));
    servers.splice(servers.indexOf(second), 1);
    expect(await telnet.start()).toEqual({ host: '127.0.0.1', port: taken + 1 });
  });

  it('returns the same address when started twice', async () => {
    const telnet = makeConsole();
    const [first, second] = await Promise.all([telnet.start(), telnet.start()]);
    expect(second).toEqual(first);
  });

  it('logs an ERROR from openSpider instead of failing the crawl when it cannot listen', async () => {
    const taken = await takenPortWithFreeNext();
    const bus = new LogBus({ now: () => TIME });
    const events = recordLogs(bus);
    const telnet = makeConsole({ portRange: [taken], logger: bus.getLogger(TELNET_LOGGER) });
    await expect(telnet.openSpider()).resolves.toBeUndefined();
    expect(events).toEqual([{
      time: TIME,
      logger: TELNET_LOGGER,
      level: 'ERROR',
      message: `Telnet console could not listen on 127.0.0.1: port ${taken} is in use or not permitted; ` +
        'set TELNETCONSOLE_PORT to a free range ([0] takes any free port) or TELNETCONSOLE_ENABLED=false',
    }]);
  });
});

describe('TelnetConsole: authentication', () => {
  it('prompts for the username, hides the password with WILL ECHO, and opens the console', async () => {
    const { port } = await makeConsole({ username: 'seine', password: 'secret' }).start();
    const client = await Client.connect(port);
    expect(await client.readUntil('Username: ')).toBe('Username: ');
    client.send('seine\r\n');
    expect(await client.readUntil('Password: ')).toBe('\xff\xfb\x01Password: ');
    client.send('secret\r\n');
    expect(await client.readUntil(PROMPT)).toBe(`\xff\xfc\x01\r\n${BANNER}${PROMPT}`);
  });

  it.each([
    ['a wrong password', 'seine', 'guess'],
    ['a wrong username', 'root', 'secret'],
    ['an empty password', 'seine', ''],
  ])('answers %s with "Authentication failed" and closes the connection (one attempt allowed)', async (_case, username, password) => {
    const { port } = await makeConsole({ username: 'seine', password: 'secret', loginAttempts: 1 }).start();
    const client = await Client.connect(port);
    await client.readUntil('Username: ');
    client.send(`${username}\r\n`);
    await client.readUntil('Password: ');
    client.send(`${password}\r\n1+1\r\n`);
    expect(await client.readUntil('Authentication failed\r\n')).toBe('\xff\xfc\x01\r\nAuthentication failed\r\n');
    await client.closed;
    expect(client.bytes.toString('latin1')).not.toContain(PROMPT);
  });

  it('accepts the credentials and the first lines of code in one packet, ended by LF, CRLF or CR NUL', async () => {
    const { port } = await makeConsole({ password: 'pw' }).start();
    const client = await Client.connect(port);
    client.send(Buffer.from('seine\r\x00pw\n6*7\r\n'));
    await client.readUntil(PROMPT);
    expect(await client.readUntil(PROMPT)).toBe(`42\r\n${PROMPT}`);
  });

  it('accepts a CRLF split across packets without seeing an empty line', async () => {
    const { port } = await makeConsole({ password: 'pw' }).start();
    const client = await Client.connect(port);
    await client.readUntil('Username: ');
    client.send('seine\r');
    await client.readUntil('Password: ');
    client.send('\npw\r');
    await client.readUntil(PROMPT);
    client.send('\n1+1\r\n');
    expect(await client.readUntil(PROMPT)).toBe(`2\r\n${PROMPT}`);
  });
});

describe('TelnetConsole: login limits (docs/security.md, "Telnet console")', () => {
  it('TELNETCONSOLE_LOGIN_ATTEMPTS and TELNETCONSOLE_LOGIN_TIMEOUT default to 3 and 30 s and are read from the settings', () => {
    const defaults = track(TelnetConsole.fromCrawler(fakeCrawler({ TELNETCONSOLE_PASSWORD: 'pw' })));
    expect([defaults.loginAttempts, defaults.loginTimeout]).toEqual([3, 30]);
    const set = track(TelnetConsole.fromCrawler(fakeCrawler({ TELNETCONSOLE_PASSWORD: 'pw', TELNETCONSOLE_LOGIN_ATTEMPTS: 5, TELNETCONSOLE_LOGIN_TIMEOUT: 2.5 })));
    expect([set.loginAttempts, set.loginTimeout]).toEqual([5, 2.5]);
  });

  it('waits 250 ms after a first failure, doubling up to 5 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((failures) => loginDelayAfter(failures, 250, 5000))).toEqual([0, 250, 500, 1000, 2000, 4000, 5000, 5000]);
  });

  it('asks again after a failed login, and drops the connection after the third failure with a WARNING', async () => {
    const bus = new LogBus({ now: () => TIME });
    const events = recordLogs(bus);
    const { port } = await makeConsole({ password: 'secret', loginDelay: 10, logger: bus.getLogger(TELNET_LOGGER) }).start();
    const client = await Client.connect(port);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await client.readUntil('Username: ');
      client.send('seine\r\n');
      await client.readUntil('Password: ');
      client.send(`guess${attempt}\r\n`);
      await client.readUntil('Authentication failed\r\n');
    }
    await client.closed;
    expect(client.bytes.toString('latin1').split('Username: ')).toHaveLength(4);
    const warnings = events.filter((event) => event.level === 'WARNING').map((event) => event.message);
    expect(warnings).toEqual([expect.stringMatching(/^Telnet console: dropped the connection from 127\.0\.0\.1:\d+ after 3 failed logins$/)]);
  });

  it('opens the console on a right password after a wrong one, on the same connection', async () => {
    const { port } = await makeConsole({ password: 'secret', loginDelay: 10 }).start();
    const client = await Client.connect(port);
    await client.readUntil('Username: ');
    client.send('seine\r\nwrong\r\n');
    await client.readUntil('Authentication failed\r\nUsername: ');
    client.send('seine\r\nsecret\r\n1+1\r\n');
    await client.readUntil(PROMPT);
    expect(await client.readUntil(PROMPT)).toBe(`2\r\n${PROMPT}`);
  });

  it('delays the next check after a failure for every connection, not only the one that failed', async () => {
    const { port } = await makeConsole({ password: 'secret', loginDelay: 400, loginAttempts: 1 }).start();
    const first = await Client.connect(port);
    first.send('seine\r\nwrong\r\n');
    await first.readUntil('Authentication failed');
    const started = Date.now();
    const second = await Client.connect(port);
    second.send('seine\r\nsecret\r\n');
    await second.readUntil(PROMPT);
    // Even the right password waits out the delay: an answer that came at once would tell a guess was right.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('does not check the logins of connections closed while they waited: they delay no one', async () => {
    const { port } = await makeConsole({ password: 'secret', loginDelay: 300, loginAttempts: 1 }).start();
    const first = await Client.connect(port);
    first.send('seine\r\nwrong\r\n');
    await first.readUntil('Authentication failed');
    // Ten guesses queued behind the 300 ms delay, then abandoned: without the check each would add a delay (300 ms, 600 ms, … up to 5 s).
    for (let n = 0; n < 10; n += 1) {
      const quitter = await Client.connect(port);
      quitter.send('seine\r\nguess\r\n');
      await new Promise((resolve) => setTimeout(resolve, 5));
      quitter.socket.destroy();
    }
    const started = Date.now();
    const user = await Client.connect(port);
    user.send('seine\r\nsecret\r\n');
    await user.readUntil(PROMPT);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('drops a connection that does not log in within TELNETCONSOLE_LOGIN_TIMEOUT, logged once at WARNING then at DEBUG', async () => {
    const bus = new LogBus({ now: () => TIME });
    const events = recordLogs(bus);
    const { port } = await makeConsole({ loginTimeout: 0.3, logger: bus.getLogger(TELNET_LOGGER) }).start();
    const started = Date.now();
    const [idle, typing] = [await Client.connect(port), await Client.connect(port)];
    typing.send('seine\r\n');
    await Promise.all([idle.closed, typing.closed]);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2500);
    expect(idle.bytes.toString('latin1')).toContain('Login timed out');
    const lines = events.filter((event) => event.message.includes('did not log in')).map((event) => [event.level, event.message]);
    expect(lines).toEqual([
      ['WARNING', expect.stringMatching(/^Telnet console: dropped the connection from 127\.0\.0\.1:\d+, which did not log in within 0\.3 s \(further ones are logged at DEBUG\)$/)],
      ['DEBUG', expect.stringMatching(/which did not log in within 0\.3 s$/)],
    ]);
  });

  it('keeps a logged-in console open past the login timeout', async () => {
    const { port } = await makeConsole({ password: 'pw', loginTimeout: 0.2 }).start();
    const client = await Client.connect(port);
    await client.login('seine', 'pw');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await client.evaluate('6*7')).toBe('42\r\n');
  });

  it('answers a few wrong passwords per second at most, from 20 connections guessing in parallel (about 1,900/s before)', async () => {
    // The defaults: 3 attempts per connection, 250 ms after a first failure, doubling up to 5 s.
    const telnet = makeConsole({ password: 'secret' });
    const { port } = await telnet.start();
    const seconds = 2;
    const deadline = Date.now() + seconds * 1000;
    let failures = 0;
    const guesser = async (): Promise<void> => {
      while (Date.now() < deadline) {
        const client = await Client.connect(port);
        client.socket.on('data', (chunk: Buffer) => {
          failures += chunk.toString('latin1').split('Authentication failed').length - 1;
        });
        client.send('seine\r\nguess\r\nseine\r\nguess\r\nseine\r\nguess\r\n');
        await Promise.race([client.closed, new Promise((resolve) => setTimeout(resolve, deadline - Date.now()))]);
        client.socket.destroy();
      }
    };
    await Promise.all(Array.from({ length: 20 }, guesser));
    // 0, 0.25, 0.75, 1.75 s: 4 answers in 2 s; the bound leaves room for a slow machine's timers.
    process.stdout.write(`telnet: ${failures} wrong passwords answered in ${seconds} s\n`);
    expect(failures).toBeGreaterThanOrEqual(1);
    expect(failures).toBeLessThanOrEqual(8);
  }, 15_000);
});

describe('TelnetConsole: the console', () => {
  async function loggedIn(engineAccess: TelnetEngineAccess | null = ENGINE_ACCESS): Promise<{ client: Client; crawler: Crawler }> {
    const crawler = fakeCrawler({ TELNETCONSOLE_PASSWORD: 'pw' });
    const telnet = track(TelnetConsole.fromCrawler(crawler, engineAccess ?? undefined));
    const { port } = await telnet.start();
    const client = await Client.connect(port);
    await client.login('seine', 'pw');
    return { client, crawler };
  }

  it('evaluates stats.get("x") against the crawl\'s stats', async () => {
    const { client, crawler } = await loggedIn();
    crawler.stats.set('x', 42);
    crawler.stats.set('finish_reason', 'finished');
    expect(await client.evaluate('stats.get("x")')).toBe('42\r\n');
    expect(await client.evaluate("stats.get('finish_reason')")).toBe("'finished'\r\n");
    crawler.stats.inc('x');
    expect(await client.evaluate('stats.get("x")')).toBe('43\r\n');
  });

  it('prints the engine status report with est()', async () => {
    const { client } = await loggedIn();
    expect(await client.evaluate('est()')).toBe([
      'Execution engine status',
      '',
      'time()-engine.startTime                         : 12.5',
      'engine.downloader.active.size                   : 3',
      'engine.scraper.isIdle()                         : false',
      'engine.spider.name                              : quotes',
      '',
      '',
      '',
    ].join('\r\n'));
  });

  it('holds crawler, engine, spider and settings', async () => {
    const { client, crawler } = await loggedIn();
    expect(await client.evaluate('spider.name')).toBe("'quotes'\r\n");
    expect(await client.evaluate('settings.get("TELNETCONSOLE_PASSWORD")')).toBe("'pw'\r\n");
    expect(await client.evaluate('engine.inFlight')).toBe('3\r\n');
    expect(await client.evaluate('crawler.spider === spider && crawler.stats === stats')).toBe('true\r\n');
    expect(crawler.spider.name).toBe('quotes');
  });

  it('adds the names the engine access gives, and leaves engine undefined without one', async () => {
    const withVars = await loggedIn({ ...ENGINE_ACCESS, vars: () => ({ extensions: ['LogStats'] }) });
    expect(await withVars.client.evaluate('extensions')).toBe("[ 'LogStats' ]\r\n");
    const bare = await loggedIn(null);
    expect(await bare.client.evaluate('typeof engine')).toBe("'undefined'\r\n");
    expect(await bare.client.evaluate('est()')).toBe(
      'Execution engine status\r\n\r\nspider.name                                     : quotes\r\n\r\n\r\n',
    );
  });

  it('pretty-prints with p(), writes console.log to the client, and shows errors', async () => {
    const { client } = await loggedIn();
    expect(await client.evaluate('p({ a: [1, 2], b: "c" })')).toBe("{ a: [ 1, 2 ], b: 'c' }\r\n");
    expect(await client.evaluate('console.log("hello", 1)')).toBe('hello 1\r\n');
    expect(await client.evaluate('nope.x')).toBe('Uncaught ReferenceError: nope is not defined\r\n');
    expect(await client.evaluate('await Promise.resolve(7)')).toBe('7\r\n');
  });

  it('prints live references with prefs()', async () => {
    const { client } = await loggedIn({ ...ENGINE_ACCESS, liveRefs: () => [{ name: 'Request', count: 12, oldest: Date.now() - 5000 }] });
    expect(await client.evaluate('prefs()')).toMatch(/^Live References\r\n\r\nRequest {28}12 {3}oldest: 5s ago\r\n\r\n$/);
    const bare = await loggedIn(null);
    expect(await bare.client.evaluate('prefs()')).toBe('Live References\r\n\r\n(this crawl tracks no live references)\r\n\r\n');
  });

  it('closes the connection on .exit and when the client ends its side', async () => {
    const first = await loggedIn();
    first.client.send('.exit\r\n');
    await first.client.closed;
    const second = await loggedIn();
    second.client.socket.end();
    await second.client.closed;
  });

  it('gives each connection its own variables', async () => {
    const crawler = fakeCrawler({ TELNETCONSOLE_PASSWORD: 'pw' });
    const { port } = await track(TelnetConsole.fromCrawler(crawler, ENGINE_ACCESS)).start();
    const one = await Client.connect(port);
    const two = await Client.connect(port);
    await one.login('seine', 'pw');
    await two.login('seine', 'pw');
    expect(await one.evaluate('var mine = 1; mine')).toBe('1\r\n');
    expect(await two.evaluate('typeof mine')).toBe("'undefined'\r\n");
  });
});

describe('TelnetConsole: telnet protocol bytes', () => {
  it('strips IAC negotiation and subnegotiation a telnet client sends, and refuses each option once', async () => {
    const { port } = await makeConsole({ password: 'pw' }).start();
    const client = await Client.connect(port);
    await client.readUntil('Username: ');
    client.send(Buffer.from([IAC, WILL, NAWS, IAC, SB, NAWS, 0, 80, 0, 24, IAC, SE, ...Buffer.from('se'), IAC, NOP, ...Buffer.from('ine\r\n')]));
    expect(await client.readUntil('Password: ')).toBe('\xff\xfe\x1f\xff\xfb\x01Password: ');
    client.send(Buffer.from([IAC, DO, ECHO, IAC, WILL, NAWS, ...Buffer.from('p'), IAC, SB, NAWS, 0, 100, IAC, IAC, 24, IAC, SE, ...Buffer.from('w\r\n')]));
    expect(await client.readUntil(PROMPT)).toBe(`\xff\xfc\x01\r\n${BANNER}${PROMPT}`);
    client.send(Buffer.from([IAC, DONT, ECHO, ...Buffer.from('"ok"'), IAC, DO, 3, ...Buffer.from('\r\n')]));
    expect(await client.readUntil(PROMPT)).toBe(`\xff\xfc\x03'ok'\r\n${PROMPT}`);
  });

  it('IacFilter gives the same text fed whole or byte by byte', () => {
    const input = Buffer.from([
      ...Buffer.from('ab'), IAC, WILL, NAWS, IAC, SB, NAWS, 0, 80, IAC, IAC, 0, 24, IAC, SE,
      ...Buffer.from('c\r'), 0, ...Buffer.from('d'), IAC, IAC, IAC, 244, IAC, WONT, 1, IAC, DONT, 5, ...Buffer.from('e\n'),
    ]);
    const wholeReplies: number[] = [];
    const whole = new IacFilter((bytes) => wholeReplies.push(...bytes)).feed(input);
    expect([...whole]).toEqual([...Buffer.from('abc\rd'), 255, ...Buffer.from('e\n')]);
    expect(wholeReplies).toEqual([IAC, DONT, NAWS]);
    const split = new IacFilter();
    const pieces = [...input].map((byte) => split.feed(Buffer.from([byte])));
    expect(Buffer.concat(pieces)).toEqual(whole);
  });

  it('IacFilter refuses DO with WONT and WILL with DONT, only once per option', () => {
    const replies: number[][] = [];
    const filter = new IacFilter((bytes) => replies.push([...bytes]));
    filter.feed(Buffer.from([IAC, DO, 24, IAC, DO, 24, IAC, WILL, 24, IAC, WILL, 24, IAC, DO, ECHO, IAC, WONT, 5]));
    expect(replies).toEqual([[IAC, WONT, 24], [IAC, DONT, 24]]);
  });
});

describe('TelnetConsole: stopping', () => {
  it('stop() drops connected clients, logged in or not, and stops listening', async () => {
    const telnet = makeConsole({ password: 'pw' });
    const { port } = await telnet.start();
    const inConsole = await Client.connect(port);
    await inConsole.login('seine', 'pw');
    const atPrompt = await Client.connect(port);
    await atPrompt.readUntil('Username: ');
    await telnet.stop();
    await Promise.all([inConsole.closed, atPrompt.closed]);
    await expect(Client.connect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('closeSpider stops the console and openSpider starts it', async () => {
    const bus = new LogBus({ now: () => TIME });
    const events = recordLogs(bus);
    const telnet = makeConsole({ logger: bus.getLogger(TELNET_LOGGER) });
    await telnet.openSpider();
    const port = Number(/:(\d+)$/.exec(events[0]?.message ?? '')?.[1]);
    const client = await Client.connect(port);
    await client.readUntil('Username: ');
    await telnet.closeSpider();
    await client.closed;
    await expect(Client.connect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('stop() before start() and twice is harmless', async () => {
    const telnet = makeConsole();
    await telnet.stop();
    await telnet.start();
    await telnet.stop();
    await expect(telnet.stop()).resolves.toBeUndefined();
  });
});

describe('engine status and live reference reports', () => {
  it("lays est() out as Scrapy's format_engine_status", () => {
    expect(formatEngineStatus(() => [['len(engine.downloader.active)', 0], ['engine.slot.closing', false]])).toBe(
      'Execution engine status\n\n' +
        'len(engine.downloader.active)                   : 0\n' +
        'engine.slot.closing                             : false\n\n',
    );
  });

  it('reports a status function that throws as "<ErrorName> (exception)"', () => {
    expect(formatEngineStatus(() => {
      throw new TypeError('engine gone');
    })).toBe('Execution engine status\n\nengineStatus()                                  : TypeError (exception)\n\n');
  });

  it("lays prefs() out as Scrapy's format_live_refs, sorted by name, without empty kinds", () => {
    const now = 1_000_000;
    expect(formatLiveRefs([
      { name: 'Response', count: 2, oldest: now - 1500 },
      { name: 'Item', count: 0, oldest: now },
      { name: 'Request', count: 120, oldest: new Date(now - 61_000) },
    ], now)).toBe(
      'Live References\n\n' +
        'Request                           120   oldest: 61s ago\n' +
        'Response                            2   oldest: 1s ago\n',
    );
  });
});

describe('login limits from settings', () => {
  it('refuses TELNETCONSOLE_LOGIN_ATTEMPTS below 1 and a negative TELNETCONSOLE_LOGIN_TIMEOUT, naming the value', () => {
    expect(() => TelnetConsole.fromCrawler(fakeCrawler({ TELNETCONSOLE_LOGIN_ATTEMPTS: 0 }))).toThrow(
      'Setting TELNETCONSOLE_LOGIN_ATTEMPTS must be at least 1, got 0 (from the project\'s settings): it is how many logins one connection may try, and 0 would refuse every login',
    );
    expect(() => TelnetConsole.fromCrawler(fakeCrawler({ TELNETCONSOLE_LOGIN_TIMEOUT: -5 }))).toThrow(
      "Setting TELNETCONSOLE_LOGIN_TIMEOUT must be at least 0, got -5 (from the project's settings): use 0 for no limit",
    );
  });
});
