import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import { shellRequest } from '../../src/shell/shell-request.js';

describe('shellRequest (what fetch sends)', () => {
  it('makes an unfiltered request that lets every status but 3xx through when following redirects', () => {
    const request = shellRequest('http://example.com/');
    expect(request.dontFilter).toBe(true);
    const statuses = request.meta['handle_httpstatus_list'] as number[];
    expect(statuses).toContain(200);
    expect(statuses).toContain(404);
    expect(statuses).toContain(500);
    expect(statuses).not.toContain(301);
    expect(statuses).not.toContain(302);
  });

  it('lets every status through with redirect: false', () => {
    expect(shellRequest('http://example.com/', { redirect: false }).meta).toEqual({ handle_httpstatus_all: true });
  });

  it('resolves a path target against cwd', () => {
    expect(shellRequest('./a.html', { cwd: '/srv/site' }).url).toBe('file:///srv/site/a.html');
  });

  it("keeps a Request's own method and body, adding the status meta only where none is set", () => {
    const post = new Request('http://example.com/form', { method: 'POST', body: 'a=1' });
    const sent = shellRequest(post);
    expect(sent.method).toBe('POST');
    expect(sent.body.toString()).toBe('a=1');
    expect(sent.meta['handle_httpstatus_list']).toBeDefined();
    const own = new Request('http://example.com/', { meta: { handle_httpstatus_list: [404] } });
    expect(shellRequest(own)).toBe(own);
  });
});
