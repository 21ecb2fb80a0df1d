import { describe, expect, it } from '@jest/globals';
import { repairChunk } from '../../src/download/header-colon-repair.js';

/** The bytes after the repair, as text, and whether the header section is still being read. */
function repaired(text: string): [string, boolean] {
  const chunk = Buffer.from(text, 'latin1');
  const state = { inHead: true, atStatusLine: true };
  repairChunk(chunk, state);
  return [chunk.toString('latin1'), state.inHead];
}

describe('repairChunk', () => {
  it('moves a colon left over the blanks before it, at the same length', () => {
    expect(repaired('HTTP/1.1 200 OK\r\nContent-Type : text/html\r\nX-A \t: 1\r\n\r\n')).toEqual(['HTTP/1.1 200 OK\r\nContent-Type:  text/html\r\nX-A: \t 1\r\n\r\n', false]);
  });

  it('leaves the status line, well-formed headers, colons inside values and folded lines alone', () => {
    const text = 'HTTP/1.1 200 Status : fine\r\nX-Time: 10:20 : 30\r\nX-Folded: one\r\n two : three\r\n\r\n';
    expect(repaired(text)).toEqual([text, false]);
  });

  it('never touches the body after the blank line', () => {
    expect(repaired('HTTP/1.1 200 OK\nA : 1\n\nbody a : b\n')).toEqual(['HTTP/1.1 200 OK\nA:  1\n\nbody a : b\n', false]);
  });

  it('keeps reading the header section when the chunk ends inside it', () => {
    expect(repaired('HTTP/1.1 200 OK\r\nA : 1\r\nB')).toEqual(['HTTP/1.1 200 OK\r\nA:  1\r\nB', true]);
  });
});
