/**
 * Reads a response header written with blanks before its colon
 * (`Content-Type : text/html`), as browsers and Scrapy do. Node's HTTP parser
 * (llhttp 9 in Node 20) refuses it with HPE_INVALID_HEADER_TOKEN in every
 * mode, lenient or not, and offers no hook between the socket and the parser.
 *
 * So the repair works on the bytes before the parser sees them, in place and
 * at the same length: the colon moves left over the blanks, which land after
 * it as the optional whitespace a value may start with
 * (`Content-Type : x` → `Content-Type:  x`). Nothing else in the stream
 * changes: only lines of the header section whose first colon follows a
 * blank, and never the status line or the body.
 *
 * It listens before the HTTP client on the socket's `data` events
 * (prependListener), once per socket, and is told by each request handed
 * that socket (keep-alive reuse) that a new header section begins. A header
 * line split across two reads is left as it is (llhttp then refuses it as
 * before); header sections arrive whole in the first read in practice.
 * Cost: one native `indexOf` per read of a header section when no line needs
 * it.
 */
import type { Socket } from 'node:net';

const STATE = Symbol('seine.headerColonRepair');
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const COLON = 0x3a;

interface RepairState {
  /** Still inside a header section (between a request being sent and its blank line). */
  inHead: boolean;
  /** The status line has not been passed yet. */
  atStatusLine: boolean;
}

/** Called for each request given `socket`: the next bytes read start a response's header section. */
export function repairHeaderColons(socket: Socket): void {
  const holder = socket as Socket & { [STATE]?: RepairState };
  const existing = holder[STATE];
  if (existing !== undefined) {
    existing.inHead = true;
    existing.atStatusLine = true;
    return;
  }
  const state: RepairState = { inHead: true, atStatusLine: true };
  holder[STATE] = state;
  socket.prependListener('data', (chunk: Buffer) => {
    if (state.inHead) repairChunk(chunk, state);
  });
}

/** Rewrites `chunk` in place up to the end of the header section (or the chunk). */
export function repairChunk(chunk: Buffer, state: RepairState): void {
  let lineStart = 0;
  while (lineStart < chunk.length) {
    const lf = chunk.indexOf(LF, lineStart);
    const lineEnd = lf === -1 ? chunk.length : lf;
    const contentEnd = lineEnd > lineStart && chunk[lineEnd - 1] === 0x0d ? lineEnd - 1 : lineEnd;
    if (lf !== -1 && contentEnd === lineStart && !state.atStatusLine) {
      state.inHead = false; // the blank line: the body follows, untouched
      return;
    }
    if (state.atStatusLine) {
      if (lf !== -1) state.atStatusLine = false;
    } else if (lf !== -1) {
      moveColon(chunk, lineStart, contentEnd);
    }
    if (lf === -1) return;
    lineStart = lf + 1;
  }
}

/** `Name<blanks>:` → `Name:<blanks>` when the line's first colon follows a blank and the name is not empty. */
function moveColon(chunk: Buffer, start: number, end: number): void {
  // A continuation line (obs-fold) starts with a blank: its colons belong to a value.
  if (chunk[start] === SPACE || chunk[start] === TAB) return;
  const colon = chunk.indexOf(COLON, start);
  if (colon === -1 || colon >= end) return;
  let nameEnd = colon;
  while (nameEnd > start && (chunk[nameEnd - 1] === SPACE || chunk[nameEnd - 1] === TAB)) nameEnd--;
  if (nameEnd === colon || nameEnd === start) return;
  chunk.copyWithin(nameEnd + 1, nameEnd, colon);
  chunk[nameEnd] = COLON;
}
