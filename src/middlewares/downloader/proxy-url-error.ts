import { SeineError } from '../../errors/seine-error.js';

/** A proxy URL (`meta.proxy`, `http_proxy`, …) without a `//host` part, such as `http:/proxy` or a socket path. */
export class ProxyUrlError extends SeineError {
  static readonly code = 'SEINE_BAD_PROXY_URL';
  readonly proxy: string;

  constructor(proxy: string) {
    super(ProxyUrlError.code, `Proxy URL with no authority: '${proxy}' (write it as scheme://host:port, e.g. 'http://proxy.example:3128')`);
    this.proxy = proxy;
  }
}
