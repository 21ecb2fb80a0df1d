/**
 * scrapyd's JSON API of `seine serve`, in process, against a fake version
 * store whose spiders are a small script (fixtures/fake-crawl.mjs): answers'
 * fields as scrapyd 1.5 writes them, the queue under max_proc, cancel,
 * persistence across a restart, retention, logs and items served.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../src/serve/run-service.js';
import { FakeStore } from './fixtures/fake-store.js';
import { client, listjobs, until, type Client } from './fixtures/service-client.js';

const services: RunningService[] = [];
const dirs: string[] = [];

async function start(cfg = '', dir = mkdtempSync(join(tmpdir(), 'seine-serve-'))): Promise<{ c: Client; service: RunningService; dir: string; store: FakeStore }> {
  dirs.push(dir);
  if (cfg !== '') writeFileSync(join(dir, 'seine.cfg'), `[serve]\n${cfg}\n`);
  const store = new FakeStore();
  const service = await startService({ dir, port: 0, store });
  services.push(service);
  return { c: client(`http://127.0.0.1:${service.address.port}`), service, dir, store };
}

afterEach(async () => {
  for (const service of services.splice(0)) {
    for (const job of service.book.records('running')) if (job.pid !== null) process.kill(job.pid, 'SIGKILL');
    await service.stop();
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('seine serve API', () => {
  it('daemonstatus.json answers the counts with status and node_name', async () => {
    const { c } = await start();
    expect(await c.get('/daemonstatus.json')).toEqual({ status: 200, body: { node_name: hostname(), status: 'ok', pending: 0, running: 0, finished: 0 } });
  });

  it('addversion.json takes the egg as a multipart file and answers the spiders count', async () => {
    const { c, store } = await start();
    const form = new FormData();
    form.append('project', 'shop');
    form.append('version', 'r23');
    form.append('egg', new Blob([Buffer.from('tarball bytes')]), 'shop.tar.gz');
    const response = await c.raw('/addversion.json', { method: 'POST', body: form });
    expect(await response.json()).toEqual({ node_name: hostname(), status: 'ok', project: 'shop', version: 'r23', spiders: 2 });
    expect(store.added).toEqual([{ project: 'shop', version: 'r23', size: 13 }]);
    expect((await c.get('/listversions.json?project=shop')).body.versions).toEqual(['r23']);
    expect((await c.get('/listprojects.json')).body.projects).toEqual(['demo', 'shop']);
    const asText = await c.post('/addversion.json', { project: 'shop', version: 'r24', egg: 'shop.tar.gz' });
    expect(asText.body).toMatchObject({ status: 'error', message: 'egg is not a file (if using curl, use egg=@path not egg=path)' });
  });

  it("answers errors as scrapyd does: HTTP 200, status 'error' and a message", async () => {
    const { c } = await start();
    expect(await c.post('/schedule.json', { spider: 'quick' })).toEqual({ status: 200, body: { node_name: hostname(), status: 'error', message: "'project' parameter is required" } });
    expect((await c.post('/schedule.json', { project: 'nope', spider: 'quick' })).body.message).toBe("project 'nope' not found");
    expect((await c.post('/schedule.json', { project: 'demo', spider: 'nope' })).body.message).toBe("spider 'nope' not found");
    expect((await c.post('/schedule.json', { project: 'demo', spider: 'quick', _version: 'v9' })).body.message).toBe("version 'v9' not found");
    expect((await c.post('/schedule.json', { project: 'demo', spider: 'quick', jobid: '../x' })).body.status).toBe('error');
    expect((await c.get('/schedule.json')).body).toMatchObject({ status: 'error', message: expect.stringContaining('UnsupportedMethod') });
    const unknown = await c.get('/nothing.json');
    expect(unknown.status).toBe(404);
    expect(unknown.body.status).toBe('error');
    expect((await c.post('/delversion.json', { project: 'demo', version: 'v9' })).body.message).toBe("version 'v9' not found");
    expect((await c.get('/listspiders.json?project=demo')).body).toMatchObject({ status: 'ok', spiders: ['quick', 'slow'] });
  });

  it('runs at most max_proc jobs, by priority then order; cancel removes a pending job and stops a running one', async () => {
    const { c, dir, service } = await start('max_proc = 2');
    const ids: string[] = [];
    for (const priority of ['0', '0', '0', '5']) {
      const { body } = await c.post('/schedule.json', { project: 'demo', spider: 'slow', ms: '60000', priority, setting: ['DOWNLOAD_DELAY=2', 'X=a=b'], arg1: ['val1', 'ignored'] });
      expect(body).toMatchObject({ status: 'ok', jobid: expect.stringMatching(/^[0-9a-f]{32}$/) });
      ids.push(body.jobid as string);
    }
    const jobs = await listjobs(c, 'demo');
    expect(jobs.running.map((job) => job.id)).toEqual([ids[0], ids[1]]);
    // The later job of higher priority goes first.
    expect(jobs.pending.map((job) => job.id)).toEqual([ids[3], ids[2]]);
    expect(jobs.pending[1]).toEqual({ id: ids[2], project: 'demo', spider: 'slow', version: null, settings: { DOWNLOAD_DELAY: '2', X: 'a=b' }, args: { ms: '60000', arg1: 'val1' } });
    expect(jobs.running[0]).toEqual({ id: ids[0], project: 'demo', spider: 'slow', pid: expect.any(Number), start_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/), log_url: `/logs/demo/slow/${ids[0]}.log`, items_url: null });
    expect((await c.get('/daemonstatus.json')).body).toMatchObject({ pending: 2, running: 2, finished: 0 });
    expect((await c.get(`/status.json?job=${ids[2]}`)).body.currstate).toBe('pending');
    // The pages' view of a running job names the version it runs (the latest, as none was asked for).
    expect(service.book.get(ids[0]!)).toMatchObject({ state: 'running', version: 'v1' });

    // A crawl that has not set up its signal handling yet would die of SIGINT at once: wait until it logs.
    await until('the first crawl to start', async () => ((await (await c.raw(`/logs/demo/slow/${ids[0]}.log`)).text()).includes('fake crawl') ? true : undefined));
    expect((await c.post('/cancel.json', { project: 'demo', job: ids[2]! })).body).toMatchObject({ status: 'ok', prevstate: 'pending' });
    expect((await c.post('/cancel.json', { project: 'demo', job: ids[0]! })).body).toMatchObject({ status: 'ok', prevstate: 'running' });
    expect((await c.post('/cancel.json', { project: 'demo', job: 'unknown' })).body).toMatchObject({ status: 'ok', prevstate: null });
    const after = await until('the cancelled job to finish', async () => {
      const now = await listjobs(c);
      return now.finished.length === 1 ? now : undefined;
    });
    expect(after.finished[0]).toEqual({ id: ids[0], project: 'demo', spider: 'slow', start_time: expect.any(String), end_time: expect.any(String), log_url: `/logs/demo/slow/${ids[0]}.log`, items_url: `/items/demo/slow/${ids[0]}.jl` });
    // Its place went to the next pending job; the cancelled pending one is gone.
    expect(after.running.map((job) => job.id).sort()).toEqual([ids[1], ids[3]].sort());
    expect(after.pending).toEqual([]);
    const log = await (await c.raw(after.finished[0]!.log_url as string)).text();
    expect(log).toContain(`args={"ms":"60000","arg1":"val1"} settings={"DASHBOARD_ENABLED":"true","DASHBOARD_PORT":"0","DASHBOARD_PORT_FILE":"${join(dir, 'run', `demo.${ids[0]}.port`)}","DOWNLOAD_DELAY":"2","X":"a=b"}`);
  }, 60_000);

  it('keeps pending jobs and history across a restart of the service', async () => {
    const first = await start('max_proc = 1');
    const slow = (await first.c.post('/schedule.json', { project: 'demo', spider: 'slow', ms: '60000' })).body.jobid as string;
    const pending = (await first.c.post('/schedule.json', { project: 'demo', spider: 'quick', jobid: 'after-restart', items: '3' })).body.jobid as string;
    const pid = first.service.book.get(slow)!.pid!;
    await first.service.stop();
    services.splice(services.indexOf(first.service), 1);
    process.kill(pid, 'SIGKILL');
    await until('the crawl to die', async () => { try { process.kill(pid, 0); return undefined; } catch { return true; } });
    const second = await start('max_proc = 1', first.dir);
    const jobs = await until('the pending job to finish', async () => {
      const now = await listjobs(second.c);
      return now.finished.length === 2 ? now : undefined;
    });
    expect(second.service.book.get(slow)).toMatchObject({ state: 'finished', finish_reason: 'lost: the service stopped while it ran' });
    expect(second.service.book.get(pending)).toMatchObject({ state: 'finished', finish_reason: 'finished', items: 3, errors: 0 });
    expect(jobs.finished.map((job) => job.id)).toEqual([slow, pending]);
  }, 60_000);

  it('serves a job’s items at its items_url and keeps jobs_to_keep logs and items per spider', async () => {
    const { c, dir } = await start('max_proc = 1\njobs_to_keep = 2\nfinished_to_keep = 3');
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) ids.push((await c.post('/schedule.json', { project: 'demo', spider: 'quick', items: String(n + 1) })).body.jobid as string);
    const jobs = await until('four jobs to finish', async () => {
      const now = await listjobs(c);
      return now.running.length === 0 && now.pending.length === 0 ? now : undefined;
    });
    // finished_to_keep: the oldest finished job is forgotten; jobs_to_keep: only the newest two have files.
    expect(jobs.finished.map((job) => job.id)).toEqual(ids.slice(1));
    expect(jobs.finished.map((job) => job.items_url === null)).toEqual([true, false, false]);
    expect(readdirSync(join(dir, 'logs', 'demo', 'quick')).sort()).toEqual([`${ids[2]}.log`, `${ids[3]}.log`].sort());
    const items = await c.raw(jobs.finished[2]!.items_url as string);
    expect(items.status).toBe(200);
    expect((await items.text()).trim().split('\n').map((line) => JSON.parse(line))).toEqual([0, 1, 2, 3].map((n) => ({ n, spider: 'quick' })));
  }, 60_000);

  it('refuses a jobs.json it cannot read, in one line saying what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seine-serve-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'jobs.json'), '{"seq": 1, "jobs": [');
    await expect(startService({ dir, port: 0, store: new FakeStore() })).rejects.toThrow(/jobs\.json cannot be read \(.*\): move it away to start with no jobs$/);
  });

  it('deletes versions and projects', async () => {
    const { c } = await start();
    expect((await c.post('/delproject.json', { project: 'demo' })).body).toEqual({ node_name: hostname(), status: 'ok' });
    expect((await c.get('/listprojects.json')).body.projects).toEqual([]);
    expect((await c.post('/delproject.json', { project: 'demo' })).body.message).toBe("project 'demo' not found");
  });
});
