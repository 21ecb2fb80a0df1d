import { SeineError } from '../../errors/seine-error.js';

/**
 * TELNETCONSOLE_HOST names an interface other than loopback. The console
 * evaluates any JavaScript it is sent inside the crawl's process, so it must
 * never be reachable from another machine; a password is not enough for that.
 */
export class TelnetHostError extends SeineError {
  static readonly code = 'SEINE_TELNET_HOST';

  constructor(host: string) {
    super(
      TelnetHostError.code,
      `TELNETCONSOLE_HOST must be a loopback address (127.0.0.1, ::1 or localhost), got '${host}': ` +
        'the telnet console runs any JavaScript it receives, so seine only listens on loopback; ' +
        'use an SSH tunnel to reach it from another machine, or set TELNETCONSOLE_ENABLED=false',
    );
  }
}

/** TELNETCONSOLE_PORT is not a valid port range, or every port of it is taken. */
export class TelnetPortError extends SeineError {
  static readonly code = 'SEINE_TELNET_PORT';

  constructor(message: string, options?: { cause?: unknown }) {
    super(TelnetPortError.code, message, options);
  }
}
