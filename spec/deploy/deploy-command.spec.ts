/**
 * `seine deploy` through the real binary, against a local HTTP server that
 * records the multipart upload as scrapyd's addversion.json receives it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ensureBuilt, runSeine } from '../cli/fixtures/run-seine.js';
import { freePort } from '../helpers/free-port.js';
import { makeProject } from './fixtures/deployable-project.js';

const TIMEOUT = 300_000;

interface Upload {
  path: string;
  authorization: string | undefined;
  fields: Record<string, string>;
  egg: { name: string; bytes: Buffer } | null;
}

/** A stand-in for seine serve's addversion.json: records each upload and answers what `answer` says. */
async function startRecorder(answer: (upload: Upload) => { status: number; body: string }): Promise<{ url: string; uploads: Upload[]; close(): Promise<void> }> {
  const uploads: Upload[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const form = await new Request('http://x/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) }).formData();
        const fields: Record<string, string> = {};
        let egg: Upload['egg'] = null;
        for (const [name, value] of form.entries()) {
          if (typeof value === 'string') fields[name] = value;
          else egg = { name: (value as File).name, bytes: Buffer.from(await (value as File).arrayBuffer()) };
        }
        const upload = { path: req.url ?? '', authorization: req.headers.authorization, fields, egg };
        uploads.push(upload);
        const { status, body } = answer(upload);
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    uploads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function setDeploy(root: string, deploy: string): void {
  writeFileSync(join(root, 'seine.cfg'), `[settings]\ndefault = shop.settings\n\n${deploy}`);
}

describe('seine deploy', () => {
  let dir: string;
  let root: string;

  beforeAll(async () => {
    expect(await ensureBuilt()).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'seine-deploy-cmd-'));
    // No npm install: deploy packs the lockfile, so one copied in is enough here.
    root = await makeProject(dir, 'shop', {}, false);
    writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ name: 'shop', lockfileVersion: 3, packages: { '': { name: 'shop' } } }));
  }, TIMEOUT);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('uploads project, version and the packed project as egg to <url>addversion.json, with basic auth, and prints the answer', async () => {
    const server = await startRecorder(() => ({ status: 200, body: '{"node_name": "box", "status": "ok", "project": "shop", "version": "r7", "spiders": 2}' }));
    try {
      setDeploy(root, `[deploy]\nurl = ${server.url}\nproject = shop\nusername = alice\npassword = s3cret\n`);
      const run = await runSeine(['deploy', '--version', 'r7'], root);
      expect(run.stderr).toBe(`Packing version r7\nDeploying to project "shop" in ${server.url}addversion.json\nServer response (200):\n`);
      expect(run.stdout).toBe('{"node_name": "box", "status": "ok", "project": "shop", "version": "r7", "spiders": 2}\n');
      expect(run.status).toBe(0);
      expect(server.uploads).toHaveLength(1);
      const [upload] = server.uploads;
      expect(upload!.path).toBe('/addversion.json');
      expect(upload!.fields).toEqual({ project: 'shop', version: 'r7' });
      expect(upload!.authorization).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
      expect(upload!.egg!.name).toBe('shop-r7.tar.gz');
      const tar = gunzipSync(upload!.egg!.bytes).toString('latin1');
      expect(tar).toContain('package-lock.json');
      expect(tar).toContain('shop/spiders/index.ts');
      expect(tar).not.toContain('node_modules');
    } finally {
      await server.close();
    }
  }, TIMEOUT);

  it('deploys to a named target, which inherits [deploy], with -p overriding the project; -l lists the targets', async () => {
    const server = await startRecorder(() => ({ status: 200, body: '{"status": "ok", "spiders": 0}' }));
    try {
      setDeploy(root, `[deploy]\nurl = http://ops:secret@127.0.0.1:1/\nproject = shop\n\n[deploy:staging]\nurl = ${server.url.slice(0, -1)}\n`);
      const list = await runSeine(['deploy', '-l'], root);
      expect(list.stdout).toBe(`${'default'.padEnd(20)} http://ops:***@127.0.0.1:1/\n${'staging'.padEnd(20)} ${server.url}\n`);
      const run = await runSeine(['deploy', 'staging', '-p', 'shop2', '--version', 'v1'], root);
      expect(run.status).toBe(0);
      expect(server.uploads[0]!.fields).toEqual({ project: 'shop2', version: 'v1' });
      expect(server.uploads[0]!.authorization).toBeUndefined();
    } finally {
      await server.close();
    }
  }, TIMEOUT);

  it('fails with one line: no url, an unknown target, an unreachable service, a 401, the service’s error', async () => {
    setDeploy(root, '[deploy]\n#url = http://localhost:6800/\nproject = shop\n');
    let run = await runSeine(['deploy'], root);
    expect(run.stderr).toBe("seine: seine.cfg's [deploy] has no url: add url = http://localhost:6800/ (where `seine serve` listens)\n");
    expect(run.status).toBe(1);

    run = await runSeine(['deploy', 'prod'], root);
    expect(run.stderr).toBe('seine: seine.cfg has no [deploy:prod] section (targets: default): add one with its url, or run `seine deploy -l`\n');

    const closed = await freePort();
    setDeploy(root, `[deploy]\nurl = http://127.0.0.1:${closed}/\nproject = shop\n`);
    run = await runSeine(['deploy', '--version', 'r1'], root);
    expect(run.stderr.split('\n').at(-2)).toBe(`seine: cannot reach http://127.0.0.1:${closed}/addversion.json (ECONNREFUSED): is \`seine serve\` running there?`);
    expect(run.status).toBe(1);

    const server = await startRecorder((upload) =>
      upload.authorization === undefined || upload.authorization !== `Basic ${Buffer.from('alice:right').toString('base64')}`
        ? { status: 401, body: '{"status": "error", "message": "Unauthorized"}' }
        : { status: 200, body: '{"status": "error", "message": "npm ci failed: 404 Not Found - GET https://registry.npmjs.org/nope"}' },
    );
    try {
      setDeploy(root, `[deploy]\nurl = ${server.url}\nproject = shop\nusername = alice\npassword = wrong\n`);
      run = await runSeine(['deploy', '--version', 'r1'], root);
      expect(run.stderr.split('\n').at(-2)).toBe("seine: the service refused username 'alice' and its password (401): check username and password in seine.cfg");
      expect(run.status).toBe(1);

      setDeploy(root, `[deploy]\nurl = ${server.url}\nproject = shop\n`);
      run = await runSeine(['deploy', '--version', 'r1'], root);
      expect(run.stderr.split('\n').at(-2)).toBe("seine: the service asks for a password (401): set username and password in seine.cfg's [deploy]");

      // Credentials written in the url are sent as basic auth, not as part of the URL (fetch refuses those).
      setDeploy(root, `[deploy]\nurl = ${server.url.replace('http://', 'http://alice:right@')}\nproject = shop\n`);
      run = await runSeine(['deploy', '--version', 'r1'], root);
      expect(run.stderr).toContain(`Deploying to project "shop" in ${server.url}addversion.json\n`);
      expect(server.uploads.at(-1)!.authorization).toBe(`Basic ${Buffer.from('alice:right').toString('base64')}`);

      setDeploy(root, `[deploy]\nurl = ${server.url}\nproject = shop\nusername = alice\npassword = right\n`);
      run = await runSeine(['deploy', '--version', 'r1'], root);
      expect(run.stdout).toBe('{"status": "error", "message": "npm ci failed: 404 Not Found - GET https://registry.npmjs.org/nope"}\n');
      expect(run.stderr.split('\n').at(-2)).toBe('seine: the service answered 200: npm ci failed: 404 Not Found - GET https://registry.npmjs.org/nope');
      expect(run.status).toBe(1);
    } finally {
      await server.close();
    }
  }, TIMEOUT);

  it('-a deploys to every target; one that fails is named, the others still get the version, and the status is 1', async () => {
    const server = await startRecorder(() => ({ status: 200, body: '{"status": "ok", "spiders": 0}' }));
    const closed = await freePort();
    try {
      setDeploy(root, `[deploy]\nurl = ${server.url}\nproject = shop\n\n[deploy:broken]\nurl = http://127.0.0.1:${closed}/\n\n[deploy:again]\nproject = shop3\n`);
      const run = await runSeine(['deploy', '-a', '--version', 'v9'], root);
      expect(server.uploads.map((upload) => upload.fields)).toEqual([{ project: 'shop', version: 'v9' }, { project: 'shop3', version: 'v9' }]);
      expect(run.stderr).toContain(`seine: broken: cannot reach http://127.0.0.1:${closed}/addversion.json (ECONNREFUSED): is \`seine serve\` running there?\n`);
      expect(run.stderr.split('\n').at(-2)).toBe('seine: deploying to broken failed (see above); the other targets have the new version');
      expect(run.status).toBe(1);
    } finally {
      await server.close();
    }
  }, TIMEOUT);

  it('refuses a project without package-lock.json, saying to run npm install', async () => {
    const bare = await makeProject(dir, 'bare', {}, false);
    writeFileSync(join(bare, 'seine.cfg'), `${readFileSync(join(bare, 'seine.cfg'), 'utf8').replace('#url', 'url')}`);
    const run = await runSeine(['deploy'], bare);
    expect(run.stderr.split('\n').at(-2)).toBe(
      `seine: ${bare} has no package-lock.json: run \`npm install\` in the project first (the service installs exactly what the lockfile pins)`,
    );
    expect(run.status).toBe(1);
  }, TIMEOUT);
});
