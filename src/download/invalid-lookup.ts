import dns from 'node:dns';

/**
 * dns.lookup, except that RFC 6761's `.invalid` names, which never resolve,
 * fail at once without asking a DNS server (tests rely on it). Given to
 * node:http as `lookup` (and to got as `dnsLookup`).
 */
export function lookupHost(hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void): void {
  if (/(^|\.)invalid\.?$/i.test(hostname)) {
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname });
    process.nextTick(callback, error);
    return;
  }
  dns.lookup(hostname, options, callback as never);
}
