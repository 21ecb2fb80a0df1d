import { SeineError } from '../errors/seine-error.js';

/**
 * DASHBOARD_BIND names an address other than loopback while no
 * DASHBOARD_USERNAME/DASHBOARD_PASSWORD is set. The dashboard can pause and
 * stop the crawl, so anyone who can reach it controls the crawl.
 */
export class DashboardBindError extends SeineError {
  static readonly code = 'SEINE_DASHBOARD_BIND';

  constructor(bind: string) {
    super(
      DashboardBindError.code,
      `DASHBOARD_BIND is '${bind}', which is not a loopback address, and no DASHBOARD_USERNAME and DASHBOARD_PASSWORD are set: ` +
        'the dashboard can pause and stop the crawl, so set both (HTTP basic auth) before binding it to another address, or leave DASHBOARD_BIND at 127.0.0.1',
    );
  }
}

/** The dashboard's server could not listen (DASHBOARD_PORT taken, or not a port). */
export class DashboardListenError extends SeineError {
  static readonly code = 'SEINE_DASHBOARD_LISTEN';

  constructor(message: string, options?: { cause?: unknown }) {
    super(DashboardListenError.code, message, options);
  }
}
