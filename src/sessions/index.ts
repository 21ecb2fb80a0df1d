export { SessionsMiddleware } from './sessions-middleware.js';
export { SessionPool, type SessionPoolOptions, type SessionPoolRecord, type RetireReason } from './session-pool.js';
export { Session, type SessionRecord, type HeaderPairs } from './session.js';
export { SessionStore, SESSIONS_FILE, type SavedSessions } from './session-store.js';
