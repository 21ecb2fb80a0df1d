/**
 * The watchdog's worker thread (see watchdog.ts), as the source of a
 * CommonJS script run with `new Worker(source, { eval: true })`: a string,
 * so the same code runs from dist/ and from src/ under tsx or jest, with no
 * file to resolve and no transpiler helper in it.
 *
 * The worker never touches the main thread's objects. It reads shared
 * memory the main thread writes:
 *
 * - `i32[BEAT]`: a counter the main thread increments every `tickMs` on an
 *   unref'd interval. While it does not move, the main thread's event loop
 *   is not turning. The worker times it with its own clock, so fake timers
 *   in the main thread change nothing.
 * - `i32[LABEL_LENGTH]`, the label's UTF-8 bytes, and `i32[LABEL_BEAT]`:
 *   the callback that started last (`<GET url> (parse)`) and the beat at
 *   which it started.
 *
 * It writes one slot: `i32[READY]`, 1 once it watches.
 *
 * It tells the main thread what it sees twice: with `postMessage` (handled
 * once the event loop turns again) and, when the main thread was reachable
 * through `inspector.Session.connectToMainThread()`, with `Runtime.evaluate`
 * of a hook the main thread registered: V8 runs it at its next interrupt
 * check, which happens inside a running callback, a busy loop or a
 * backtracking regular expression, so the hook logs and exits while the
 * event loop is blocked. The main thread drops the copy it has already seen.
 *
 * With `watchSignals`, it also opens libuv signal handles for SIGINT and
 * SIGTERM in its own event loop (Node's internal `signal_wrap` binding, as
 * the main thread's `process.on('SIGINT')` does): libuv's signal handler
 * writes every signal to every loop that watches it, so the worker sees a
 * Ctrl-C even when the main thread's loop cannot read its own copy.
 */
export const WATCHDOG_WORKER_SOURCE = String.raw`
'use strict';
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const os = require('node:os');
const {
  shared, id, tickMs, warnMs, closeTimeoutMs, graceMs, watchSignals, forceWaitMs, signalBlockedMs,
} = workerData;
const BEAT = 0, LABEL_LENGTH = 1, LABEL_BEAT = 2, READY = 3, LABEL_OFFSET = 16, LABEL_BYTES = shared.byteLength - LABEL_OFFSET;
const i32 = new Int32Array(shared, 0, 4);
const labelBytes = new Uint8Array(shared, LABEL_OFFSET, LABEL_BYTES);
const decoder = new TextDecoder();
const started = Date.now();

let session = null;
try {
  const { Session } = require('node:inspector');
  session = new Session();
  session.connectToMainThread();
} catch {
  session = null; // a Node built without the inspector: messages arrive when the loop turns again
}

let seq = 0;
function tell(message) {
  message.seq = ++seq;
  parentPort.postMessage(message);
  if (session === null) return;
  const json = JSON.stringify(JSON.stringify(message));
  try {
    session.post('Runtime.evaluate', { expression: 'globalThis[Symbol.for("seine.watchdog")]?.get(' + JSON.stringify(id) + ')?.(' + json + ')' }, () => {});
  } catch {}
}

function seconds(ms) {
  return (ms / 1000).toFixed(1) + ' s';
}

/** Where the block is: the callback that started in the turn of the loop that blocked, or the last one that started before. */
function where(beat) {
  const length = Atomics.load(i32, LABEL_LENGTH);
  if (length <= 0) return { text: '', label: null };
  const label = decoder.decode(labelBytes.slice(0, Math.min(length, LABEL_BYTES)));
  const labelBeat = Atomics.load(i32, LABEL_BEAT);
  if (labelBeat === beat) return { text: ', in the callback of ' + label, label };
  const before = Math.max(0, beat - labelBeat) * tickMs;
  return { text: ' (the last callback started about ' + seconds(before) + ' before it: ' + label + ')', label };
}

// The beat and when the worker last saw it move.
let beat = Atomics.load(i32, BEAT);
let movedAt = Date.now();
let warned = false;
let warnedPlace = '';
let signals = 0;
let lastSignal = null;
let forcing = false;

function blockedFor(now) {
  return now - movedAt;
}

function force(reason, now) {
  if (forcing) return;
  forcing = true;
  const blocked = blockedFor(now);
  const place = where(beat).text;
  const cause = reason === 'closespider_timeout'
    ? 'CLOSESPIDER_TIMEOUT (' + closeTimeoutMs / 1000 + ' s) passed and the event loop has been blocked for ' + seconds(blocked) + place +
      ', so the crawl cannot close'
    : 'Received ' + lastSignal + ' twice while the event loop has been blocked for ' + seconds(blocked) + place;
  const text = cause + ': forcing unclean shutdown (exit status 1). Feeds are not finalised: JSON Lines and CSV files hold every item ' +
    'exported so far; a -O JSON or XML feed leaves its previous file and a temporary file (.<name>.<pid>.seine-tmp) with the items';
  tell({ kind: 'force', reason, text, blockedMs: blocked });
  // The hook runs at V8's next interrupt check. Native code that never returns (a synchronous
  // read that hangs, Atomics.wait) does not check: then the process is killed from here.
  const last = setTimeout(() => {
    const stamp = new Date();
    const pad = (n) => String(n).padStart(2, '0');
    const date = stamp.getFullYear() + '-' + pad(stamp.getMonth() + 1) + '-' + pad(stamp.getDate()) + ' ' +
      pad(stamp.getHours()) + ':' + pad(stamp.getMinutes()) + ':' + pad(stamp.getSeconds());
    try {
      fs.writeSync(2, date + ' [seine.extensions.watchdog] CRITICAL: ' + text + '; the main thread did not answer within ' +
        seconds(forceWaitMs) + ', so the process is killed (SIGKILL)\n');
    } catch {}
    process.kill(process.pid, 'SIGKILL');
  }, forceWaitMs);
  void last;
}

function tick() {
  const now = Date.now();
  const current = Atomics.load(i32, BEAT);
  if (current !== beat) {
    if (warned) {
      const blocked = now - movedAt;
      tell({ kind: 'unblocked', blockedMs: blocked, text: 'The event loop was blocked for ' + seconds(blocked) + warnedPlace });
      warned = false;
    }
    beat = current;
    movedAt = now;
    return;
  }
  const blocked = blockedFor(now);
  if (!warned && blocked >= warnMs) {
    warned = true;
    const place = where(beat);
    warnedPlace = place.text;
    tell({ kind: 'blocked', blockedMs: blocked, url: place.label, text: 'The event loop has been blocked for ' + seconds(blocked) + place.text });
  }
  if (signals >= 2 && blocked >= signalBlockedMs) force('signal', now);
  if (closeTimeoutMs > 0) {
    const sinceTimeout = now - started - closeTimeoutMs;
    if (sinceTimeout >= 0 && Math.min(blocked, sinceTimeout) >= graceMs) force('closespider_timeout', now);
  }
}

function onSignal(name) {
  signals++;
  lastSignal = name;
  const now = Date.now();
  const blocked = blockedFor(now);
  if (blocked < signalBlockedMs) return; // the main thread's own handler answers it
  if (signals === 1) {
    tell({ kind: 'signal', text: 'Received ' + name + ' while the event loop has been blocked for ' + seconds(blocked) + where(beat).text +
      ': the graceful shutdown starts when it returns. Send again to force' });
  } else {
    force('signal', now);
  }
}

if (watchSignals) {
  try {
    // process.binding is deprecated (DEP0111) but the only way a worker can watch a signal.
    process.noDeprecation = true;
    const { Signal } = process.binding('signal_wrap');
    for (const name of ['SIGINT', 'SIGTERM']) {
      const handle = new Signal();
      handle.onsignal = () => onSignal(name);
      if (handle.start(os.constants.signals[name]) === 0) handle.unref();
    }
  } catch {
    // Not available: only the main thread sees signals.
  }
}

setInterval(tick, Math.max(10, Math.floor(tickMs / 2)));
// The spider closes: one last look (a block that ended since the last tick is reported), then the main thread terminates the worker.
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  tick();
  parentPort.postMessage({ kind: 'stopped' });
});
// Also in shared memory: a main thread that closes before it has read this message (a block from its first turn) still knows to ask for the last look.
Atomics.store(i32, READY, 1);
parentPort.postMessage({ kind: 'ready', inspector: session !== null });
`;
