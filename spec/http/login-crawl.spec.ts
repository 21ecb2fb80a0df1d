import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FormRequest, Spider, type Response } from '../../src/index.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

/** A login form with a CSRF token and a session cookie, submitted with FormRequest.fromResponse, as docs/requests.md's example does. */

const TOKEN = 'tok-4f2a';
let site: TestSite;
beforeAll(async () => {
  site = await startSite({
    '/login': (req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body>
<form id="search" action="/search"><input name="q"></form>
<form id="login" action="/login" method="post">
  <input type="hidden" name="csrf_token" value="${TOKEN}">
  <input name="username"> <input type="password" name="password">
  <input type="checkbox" name="remember" value="yes" checked>
  <button type="submit" name="go" value="in">Log in</button>
</form></body></html>`);
        return;
      }
      const fields = new URLSearchParams(site.requests.at(-1)!.body);
      if (fields.get('csrf_token') !== TOKEN || fields.get('username') !== 'ann' || fields.get('password') !== 's3cret') {
        res.writeHead(403, { 'Content-Type': 'text/html' }).end('<html><body>bad login</body></html>');
        return;
      }
      res.writeHead(302, { Location: '/account', 'Set-Cookie': 'session=ok-ann; Path=/; HttpOnly' }).end();
    },
    '/account': (req, res) => {
      const loggedIn = /(?:^|;\s*)session=ok-ann(?:;|$)/.test(req.headers.cookie ?? '');
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(loggedIn ? '<html><body><p class="secret">Welcome back, ann</p></body></html>' : '<html><body><p>Please log in</p></body></html>');
    },
  });
});
afterAll(async () => site.close());

describe('a login-form spider', () => {
  it('submits the login form with its hidden CSRF field, keeps the session cookie, and reads the page only visible logged in', async () => {
    const start = site.url('/login');
    class LoginSpider extends Spider {
      static override name = 'login';
      override startUrls = [start];
      override parse(response: Response) {
        return FormRequest.fromResponse(response, { formid: 'login', formdata: { username: 'ann', password: 's3cret' }, callback: this.afterLogin });
      }
      *afterLogin(response: Response) {
        yield { url: response.url, secret: response.css('p.secret::text').get() };
      }
    }
    const result = await runCrawl(LoginSpider);
    expect(result.reason).toBe('finished');
    expect(result.items).toEqual([{ url: site.url('/account'), secret: 'Welcome back, ann' }]);
    const post = site.requests.find((hit) => hit.method === 'POST')!;
    expect(post.body).toBe(`csrf_token=${TOKEN}&remember=yes&go=in&username=ann&password=s3cret`);
    expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });
});
