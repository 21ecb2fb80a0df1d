/**
 * Feed path placeholders filled from spider arguments and attributes cannot
 * choose another folder (docs/security.md, "Paths").
 */
import { describe, expect, it } from '@jest/globals';
import { FeedConfigError } from '../../src/feeds/feed-errors.js';
import { expandFeedUri } from '../../src/feeds/feed-uri.js';

const NOW = { time: '2024-01-02T03-04-05', batch_time: '2024-01-02T03-04-05.123000', batch_id: 1, name: 'books' };

describe('expandFeedUri: values that would change the folder', () => {
  it('fills file names as before', () => {
    expect(expandFeedUri('out/%(name)s-%(tag)s-%(time)s.jsonl', { ...NOW, tag: 'fiction' })).toBe('out/books-fiction-2024-01-02T03-04-05.jsonl');
    expect(expandFeedUri('../shared/%(tag)s.jsonl', { ...NOW, tag: 'x' })).toBe('../shared/x.jsonl');
    expect(expandFeedUri('out/%(tag)s.jsonl', { ...NOW, tag: '...' })).toBe('out/....jsonl');
  });

  it.each([
    ['../escaped', "holds a path separator ('/' or '\\')"],
    ['a/b', "holds a path separator ('/' or '\\')"],
    ['..\\escaped', "holds a path separator ('/' or '\\')"],
    ['/etc/cron.d/x', "holds a path separator ('/' or '\\')"],
    ['..', "is '..'"],
    ['.', "is '.'"],
  ])('refuses %s with a FeedConfigError naming the value and what to do', (tag, problem) => {
    expect(() => expandFeedUri('out/%(tag)s.jsonl', { ...NOW, tag })).toThrow(
      new FeedConfigError(
        `The feed path 'out/%(tag)s.jsonl' would take %(tag)s = '${tag}', which ${problem}: a value from a spider argument or attribute ` +
          'names one file, not a folder (it would write outside the folder the feed path names); pass a value without it, or write the folders in the feed path itself',
      ),
    );
  });

  it("refuses values that together make a '..' folder", () => {
    expect(() => expandFeedUri('out/%(a)s%(b)s/items.jsonl', { ...NOW, a: '.x', b: '' })).not.toThrow();
    expect(() => expandFeedUri('out/%(a)s%(b)s/items.jsonl', { ...NOW, a: '..', b: '' })).toThrow(FeedConfigError);
    expect(() => expandFeedUri('out/%(a)s%(a)s/items.jsonl', { ...NOW, a: '.' })).toThrow(FeedConfigError);
  });
});
