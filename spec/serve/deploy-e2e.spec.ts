/**
 * The user's path of docs/serve.md, every step through the real binary:
 * `seine startproject`, a spider of a local site, `npm install`, `seine
 * serve`, `seine deploy` (reading seine.cfg's [deploy], with the password),
 * then schedule.json, listjobs.json until the job has finished, and its
 * items at items_url. Then the same project redeployed as a second version.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runSeine, startSeine, type RunningSeine } from '../cli/fixtures/run-seine.js';
import { makeProject, titlesSpider } from '../deploy/fixtures/deployable-project.js';
import { freePort } from '../helpers/free-port.js';
import { client, listjobs, until, type Client } from './fixtures/service-client.js';

const TIMEOUT = 300_000;
const USER = { username: 'ops', password: 'deploy-pass' };

let dir: string;
let project: string;
let site: Server;
let siteUrl: string;
let service: RunningSeine | undefined;
let base: string;
let c: Client;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'seine-deploy-e2e-'));
  site = createServer((request, response) => {
    const pages: Record<string, string> = {
      '/': '<html><head><title>home</title></head><body><a href="/a">a</a> <a href="/b">b</a></body></html>',
      '/a': '<html><head><title>page a</title></head><body><a href="/b">b</a></body></html>',
      '/b': '<html><head><title>page b</title></head><body></body></html>',
    };
    const body = pages[request.url ?? ''];
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  project = await makeProject(dir, 'shop', { titles: titlesSpider('titles', `${siteUrl}/`) });

  const serviceDir = join(dir, 'service');
  mkdirSync(serviceDir);
  writeFileSync(join(serviceDir, 'seine.cfg'), `[serve]\nusername = ${USER.username}\npassword = ${USER.password}\n`);
  const port = await freePort();
  // The service's npm installs from the cache alone: what a machine without the registry can do.
  service = startSeine(['serve', '--port', String(port), '--dir', serviceDir], dir, { npm_config_offline: 'true' });
  await service.waitForLog(/listening on http:\/\/127\.0\.0\.1:\d+\//);
  base = `http://127.0.0.1:${port}/`;
  c = client(base.slice(0, -1), USER);
}, TIMEOUT);

afterAll(async () => {
  service?.child.kill('SIGKILL');
  await new Promise((resolve) => site.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function configureDeploy(password: string): void {
  const cfg = readFileSync(join(project, 'seine.cfg'), 'utf8').replace(/\[deploy\][\s\S]*$/, '');
  writeFileSync(join(project, 'seine.cfg'), `${cfg}[deploy]\nurl = ${base}\nproject = shop\nusername = ${USER.username}\npassword = ${password}\n`);
}

describe('from startproject to a scheduled crawl through seine deploy', () => {
  it('refuses a wrong password in one line, and deploys nothing', async () => {
    configureDeploy('wrong');
    const run = await runSeine(['deploy', '--version', 'r0'], project);
    expect(run.stderr.split('\n').at(-2)).toBe("seine: the service refused username 'ops' and its password (401): check username and password in seine.cfg");
    expect(run.status).toBe(1);
    expect((await c.get('/listprojects.json')).body['projects']).toEqual([]);
  }, TIMEOUT);

  it('deploys, schedules, finishes and serves the items', async () => {
    configureDeploy(USER.password);
    const deployed = await runSeine(['deploy', '--version', 'r1'], project);
    expect(deployed.stderr).toBe(`Packing version r1\nDeploying to project "shop" in ${base}addversion.json\nServer response (200):\n`);
    expect(JSON.parse(deployed.stdout)).toMatchObject({ status: 'ok', project: 'shop', version: 'r1', spiders: 1 });
    expect(deployed.status).toBe(0);
    expect((await c.get('/listspiders.json?project=shop')).body['spiders']).toEqual(['titles']);

    const scheduled = await c.post('/schedule.json', { project: 'shop', spider: 'titles' });
    expect(scheduled.body['status']).toBe('ok');
    const jobid = String(scheduled.body['jobid']);
    const job = await until(
      'the job to finish',
      async () => (await listjobs(c, 'shop')).finished.find((entry) => entry.id === jobid),
      120_000,
    );
    expect(job).toMatchObject({ project: 'shop', spider: 'titles', items_url: `/items/shop/titles/${jobid}.jl` });
    const items = (await (await c.raw(String(job['items_url']))).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; title: string });
    expect(items.map((item) => item.title).sort()).toEqual(['home', 'page a', 'page b']);
  }, TIMEOUT);

  it('a second deploy is listed after the first, as the latest version', async () => {
    configureDeploy(USER.password);
    const deployed = await runSeine(['deploy', '--version', 'r2'], project);
    expect(deployed.stderr + deployed.stdout).toBe(`Packing version r2\nDeploying to project "shop" in ${base}addversion.json\nServer response (200):\n${deployed.stdout}`);
    expect(deployed.status).toBe(0);
    expect((await c.get('/listversions.json?project=shop')).body['versions']).toEqual(['r1', 'r2']);
  }, TIMEOUT);
});
