export { ProxyPool, TIER_STEP_DOWN_AFTER, type ProxyChoice, type ProxyOutcome, type ProxyPoolOptions } from './proxy-pool.js';
export { ProxyPoolMiddleware, isProxyFailure } from './proxy-pool-middleware.js';
export { proxyPoolSettings, type ProxyPoolSettings, type ProxyRotation } from './proxy-settings.js';
export { redactProxy } from './proxy-entry.js';
