/**
 * Scrapy's `listen_tcp`: bind the first free port of a range, on loopback
 * only. A range is `[]` or `[0]` (any free port), `[port]`, or
 * `[first, last]` (tried in order, both ends included).
 */
import { BlockList, isIPv4, isIPv6, type AddressInfo, type Server } from 'node:net';
import { TelnetHostError, TelnetPortError } from './errors.js';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1 (in any spelling, also IPv4-mapped) or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIPv4(host)) return LOOPBACK.check(host, 'ipv4');
  // BlockList matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 subnet.
  if (isIPv6(host)) return LOOPBACK.check(host, 'ipv6');
  return false;
}

export function assertLoopbackHost(host: string): void {
  if (!isLoopbackHost(host)) throw new TelnetHostError(host);
}

/** The ports to try, in order; throws a TelnetPortError for a range that is not one. */
export function portsToTry(range: readonly number[]): number[] {
  const shown = `[${range.join(', ')}]`;
  for (const port of range) {
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new TelnetPortError(`TELNETCONSOLE_PORT holds ${port}, which is not a port number (0-65535), in ${shown}: use [port], [first, last] or [0] for any free port`);
    }
  }
  const [first, last] = range;
  if (range.length > 2) {
    throw new TelnetPortError(`TELNETCONSOLE_PORT must be one port or a [first, last] range, got ${shown}: use [port], [first, last] or [0] for any free port`);
  }
  if (first === undefined) return [0];
  if (last === undefined) return [first];
  if (last < first) {
    throw new TelnetPortError(`TELNETCONSOLE_PORT range ${shown} ends before it starts: write it as [first, last] with first <= last`);
  }
  const ports: number[] = [];
  for (let port = first; port <= last; port += 1) ports.push(port);
  return ports;
}

function listenOnce(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

// Taken (EADDRINUSE) or privileged (EACCES, below 1024): try the next port, as
// Scrapy does on CannotListenError. Anything else is about the host, not the port.
function isPortUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'EADDRINUSE' || code === 'EACCES';
}

/**
 * Makes `server` listen on `host` at the first port of `range` it can bind.
 * A net.Server may call listen() again after a failed attempt, so one server
 * walks the whole range.
 */
export async function listenOnRange(server: Server, host: string, range: readonly number[]): Promise<AddressInfo> {
  assertLoopbackHost(host);
  const ports = portsToTry(range);
  let lastError: unknown;
  for (const port of ports) {
    try {
      await listenOnce(server, port, host);
      return server.address() as AddressInfo;
    } catch (error) {
      if (!isPortUnavailable(error)) {
        throw new TelnetPortError(`Telnet console could not listen on ${host}:${port}: ${(error as Error).message}`, { cause: error });
      }
      lastError = error;
    }
  }
  const what = ports.length === 1 ? `port ${ports[0]} is` : `every port from ${ports[0]} to ${ports[ports.length - 1]} is`;
  throw new TelnetPortError(
    `Telnet console could not listen on ${host}: ${what} in use or not permitted; ` +
      'set TELNETCONSOLE_PORT to a free range ([0] takes any free port) or TELNETCONSOLE_ENABLED=false',
    { cause: lastError },
  );
}
