/**
 * `seine serve` end to end: the real binary on a free loopback port, a
 * project made with `seine startproject` and uploaded to addversion.json as
 * `seine deploy` packs it (installed by the real version store, npm offline
 * from its cache), crawls of a local site run as the service's child
 * processes. The site's "slow" chain of pages goes on until the test ends
 * it, so a job runs exactly as long as the test needs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packProject } from '../../src/deploy/pack-project.js';
import { ensureBuilt, runSeine, startSeine, type RunningSeine } from '../cli/fixtures/run-seine.js';
import { makeProject, titlesSpider } from '../deploy/fixtures/deployable-project.js';
import { freePort } from '../helpers/free-port.js';
import { rawGet } from './fixtures/raw-get.js';
import { client, listjobs, until, type Client, type JobEntry } from './fixtures/service-client.js';

const TIMEOUT = 300_000;
const USER = { username: 'ops', password: 'correct horse' };
const OFFLINE = { npm_config_offline: 'true' };

let root: string;
let site: Server;
let siteUrl: string;
/** The slow chain's last page: pages before it link to the next one. */
let slowEnd = Number.POSITIVE_INFINITY;
let tarball: Buffer;
let serviceDir: string;
let service: RunningSeine | undefined;
let c: Client;
const orphans: number[] = [];

function startSite(): Promise<void> {
  site = createServer((request, response) => {
    const path = request.url ?? '/';
    const slow = /^\/slow\/(\d+)$/.exec(path);
    let body = '<html><head><title>none</title></head><body></body></html>';
    if (slow !== null) {
      const n = Number(slow[1]);
      body = `<html><head><title>slow ${n}</title></head><body>${n < slowEnd ? `<a href="/slow/${n + 1}">next</a>` : ''}</body></html>`;
    } else if (path === '/quick') {
      body = '<html><head><title>quick</title></head><body><a href="/leaf/1">1</a><a href="/leaf/2">2</a></body></html>';
    } else if (path.startsWith('/leaf/')) {
      body = `<html><head><title>leaf ${path.slice(6)}</title></head><body></body></html>`;
    } else {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  return new Promise((resolve) => site.listen(0, '127.0.0.1', () => resolve()));
}

async function startService(): Promise<void> {
  const port = await freePort();
  service = startSeine(['serve', '--port', String(port), '--dir', serviceDir], root, OFFLINE);
  await service.waitForLog(/listening on http:\/\/127\.0\.0\.1:\d+\//);
  c = client(`http://127.0.0.1:${port}`, USER);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  root = mkdtempSync(join(tmpdir(), 'seine-serve-e2e-'));
  await startSite();
  const address = site.address() as { port: number };
  siteUrl = `http://127.0.0.1:${address.port}`;
  const project = await makeProject(root, 'shop', { slow: titlesSpider('slow', `${siteUrl}/slow/0`), quick: titlesSpider('quick', `${siteUrl}/quick`) });
  tarball = (await packProject(project)).tarball;
  serviceDir = join(root, 'service');
  mkdirSync(serviceDir, { recursive: true });
  writeFileSync(join(serviceDir, 'seine.cfg'), `[serve]\nmax_proc = 2\nusername = ${USER.username}\npassword = ${USER.password}\n`);
  await startService();
}, TIMEOUT);

afterAll(async () => {
  slowEnd = 0;
  service?.child.kill('SIGKILL');
  for (const pid of orphans) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await new Promise((resolve) => site.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('seine serve (the binary)', () => {
  it('asks for the password, then answers daemonstatus.json', async () => {
    const anonymous = await fetch(`${c.base}/daemonstatus.json`);
    expect(anonymous.status).toBe(401);
    expect((await c.get('/daemonstatus.json')).body).toMatchObject({ status: 'ok', pending: 0, running: 0, finished: 0, node_name: expect.any(String) });
  });

  it('refuses to bind 0.0.0.0 without a password, in one line', async () => {
    const bare = join(root, 'bare');
    const run = await runSeine(['serve', '--bind', '0.0.0.0', '--port', '0', '--dir', bare], root);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/seine: refusing to bind 0\.0\.0\.0 without a password: set username and password under \[serve\]/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a second service on the same folder, and a port in use, in one line each', async () => {
    const second = await runSeine(['serve', '--port', '0', '--dir', serviceDir], root);
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/seine: another seine serve \(pid \d+\) runs from .*service: stop it, or give this one another --dir/);
    const taken = await runSeine(['serve', '--port', new URL(c.base).port, '--dir', join(root, 'other')], root);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toMatch(/seine: 127\.0\.0\.1:\d+ is in use: choose another port with --port or \[serve\] http_port/);
    expect(taken.stderr).not.toMatch(/\n\s+at /);
  });

  it('takes a version with addversion.json (the tarball as egg) and lists it', async () => {
    const form = new FormData();
    form.append('project', 'shop');
    form.append('version', 'r1');
    form.append('egg', new Blob([tarball]), 'shop.tar.gz');
    const answer = await c.raw('/addversion.json', { method: 'POST', body: form });
    expect(await answer.json()).toMatchObject({ status: 'ok', project: 'shop', version: 'r1', spiders: 2 });
    expect((await c.get('/listprojects.json')).body.projects).toEqual(['shop']);
    expect((await c.get('/listversions.json?project=shop')).body.versions).toEqual(['r1']);
    expect((await c.get('/listspiders.json?project=shop')).body.spiders).toEqual(['quick', 'slow']);
  }, TIMEOUT);

  it('runs a job and serves its items at items_url', async () => {
    const { body } = await c.post('/schedule.json', { project: 'shop', spider: 'quick', setting: 'DOWNLOAD_DELAY=0' });
    const id = body.jobid as string;
    const job = await until('the quick job to finish', async () => (await listjobs(c)).finished.find((one) => one.id === id), 120_000);
    expect(job).toMatchObject({ project: 'shop', spider: 'quick', log_url: `/logs/shop/quick/${id}.log`, items_url: `/items/shop/quick/${id}.jl` });
    const items = (await (await c.raw(job.items_url as string)).text()).trim().split('\n').map((line) => JSON.parse(line) as { title: string });
    expect(items.map((item) => item.title).sort()).toEqual(['leaf 1', 'leaf 2', 'quick']);
    const log = await (await c.raw(job.log_url as string)).text();
    expect(log).toContain("'finish_reason': 'finished'");
    expect((await fetch(`${c.base}${job.items_url as string}`)).status).toBe(401);
    // The binary confines its files too (spec/serve/security.spec.ts tries many more paths).
    const port = Number(new URL(c.base).port);
    const auth = { authorization: `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString('base64')}` };
    for (const path of ['/logs/..%2f..%2fseine.cfg', '/logs/shop/%2e%2e/%2e%2e/seine.cfg', '/items/shop/quick/..%252f..%252f..%252fseine.cfg', '/logs/shop/quick/..\\..\\..\\seine.cfg']) {
      const answer = await rawGet(port, path, auth);
      expect([400, 404]).toContain(answer.status);
      expect(answer.body).not.toContain(USER.password);
    }
  }, TIMEOUT);

  let jobs: string[] = [];
  it('runs two of three jobs at once with max_proc 2; cancel stops a running one and the third starts', async () => {
    for (let n = 0; n < 3; n++) jobs.push((await c.post('/schedule.json', { project: 'shop', spider: 'slow', jobid: `slow-${n}` })).body.jobid as string);
    expect(jobs).toEqual(['slow-0', 'slow-1', 'slow-2']);
    const first = await listjobs(c, 'shop');
    expect(first.running.map((job) => job.id)).toEqual(['slow-0', 'slow-1']);
    expect(first.pending).toEqual([{ id: 'slow-2', project: 'shop', spider: 'slow', version: null, settings: {}, args: {} }]);
    // Let the crawl get going (its log says so) before it is cancelled.
    await until('slow-0 to crawl', async () => ((await (await c.raw('/logs/shop/slow/slow-0.log')).text()).includes('slow 1') || (await (await c.raw('/logs/shop/slow/slow-0.log')).text()).includes('Crawled') ? true : undefined), 120_000);
    // Each job runs its own live dashboard; the service's page for the job forwards to it.
    const snapshot = await until('slow-0 to serve its dashboard', async () => {
      const answer = await c.raw('/jobs/slow-0/api/snapshot');
      return answer.status === 200 ? ((await answer.json()) as Record<string, unknown>) : undefined;
    }, 60_000);
    expect(snapshot).toMatchObject({ spider: 'slow' });
    expect((await c.raw('/')).status).toBe(200);
    expect((await c.post('/cancel.json', { project: 'shop', job: 'slow-0' })).body).toMatchObject({ status: 'ok', prevstate: 'running' });
    const after = await until('slow-0 to finish and slow-2 to start', async () => {
      const now = await listjobs(c, 'shop');
      return now.finished.some((job) => job.id === 'slow-0') && now.running.some((job) => job.id === 'slow-2') ? now : undefined;
    }, 120_000);
    expect(after.running.map((job) => job.id).sort()).toEqual(['slow-1', 'slow-2']);
    expect(after.pending).toEqual([]);
    const log = await (await c.raw('/logs/shop/slow/slow-0.log')).text();
    expect(log).toContain("'finish_reason': 'shutdown'");
    await service!.waitForLog(/Job finished \(shutdown\): project=shop spider=slow job=slow-0/);
  }, TIMEOUT);

  it('after kill -9 of the service, a restart runs the pending job, reports the dead crawl finished and adopts the live one', async () => {
    jobs = ['slow-1', 'slow-2'];
    await c.post('/schedule.json', { project: 'shop', spider: 'quick', jobid: 'queued', setting: 'DOWNLOAD_DELAY=0' });
    const before = await listjobs(c, 'shop');
    expect(before.pending.map((job: JobEntry) => job.id)).toEqual(['queued']);
    const pids = Object.fromEntries(before.running.map((job) => [job.id, job.pid as number]));
    service!.child.kill('SIGKILL');
    await service!.done;
    // The crawls outlive the service (as under a real kill -9); one of them dies too while it is down.
    orphans.push(pids['slow-1']!, pids['slow-2']!);
    expect(alive(pids['slow-1']!)).toBe(true);
    process.kill(pids['slow-1']!, 'SIGKILL');
    await until('slow-1 to die', async () => (alive(pids['slow-1']!) ? undefined : true));

    await startService();
    const restarted = await listjobs(c, 'shop');
    expect(restarted.finished.find((job) => job.id === 'slow-1')).toBeDefined();
    expect(await (await c.raw('/jobs/slow-1/')).text()).toContain('lost: the service stopped while it ran');
    expect(restarted.running.find((job) => job.id === 'slow-2')).toMatchObject({ pid: pids['slow-2'] });
    // max_proc 2: the adopted crawl holds a place, the queued job takes the other.
    const queued = await until('the queued job to finish', async () => (await listjobs(c)).finished.find((job) => job.id === 'queued'), 120_000);
    expect(queued.items_url).toBe('/items/shop/quick/queued.jl');
    // The adopted crawl ends when the site's chain does: it is then finished, with its own finish reason.
    slowEnd = 0;
    await until('slow-2 to finish', async () => (await listjobs(c)).finished.find((job) => job.id === 'slow-2'), 120_000);
    const status = await c.get('/status.json?job=slow-2');
    expect(status.body.currstate).toBe('finished');
    service!.child.kill('SIGTERM');
    await service!.done;
  }, TIMEOUT);
});
