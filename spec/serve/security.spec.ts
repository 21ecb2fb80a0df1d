/**
 * What `seine serve` lets out: basic auth over everything once username and
 * password are set; nothing outside the service folder under /logs/ and
 * /items/, whatever the path's encoding; no bind beyond loopback without a
 * password.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readServeConfig } from '../../src/serve/serve-config.js';
import { ServeConfigError, ServeUnprotectedBindError } from '../../src/serve/serve-errors.js';
import { startService, type RunningService } from '../../src/serve/run-service.js';
import { FakeStore } from './fixtures/fake-store.js';
import { rawGet } from './fixtures/raw-get.js';

const SECRET = 'the secret outside the folder';
// Made when the file loads: the attempts below name the secret's absolute path.
const root = mkdtempSync(join(tmpdir(), 'seine-serve-security-'));
const dir = join(root, 'service');
let service: RunningService;
let port: number;
const AUTH = { authorization: `Basic ${Buffer.from('admin:s3cret pass').toString('base64')}` };

beforeAll(async () => {
  mkdirSync(join(dir, 'logs', 'demo', 'quick'), { recursive: true });
  mkdirSync(join(dir, 'items', 'demo', 'quick'), { recursive: true });
  writeFileSync(join(root, 'secret.log'), SECRET);
  writeFileSync(join(dir, 'seine.cfg'), '[serve]\nusername = admin\npassword = s3cret pass\n');
  writeFileSync(join(dir, 'logs', 'demo', 'quick', 'job1.log'), 'a log line\n');
  symlinkSync(join(root, 'secret.log'), join(dir, 'logs', 'demo', 'quick', 'link.log'));
  symlinkSync(root, join(dir, 'logs', 'demo', 'up'));
  service = await startService({ dir, port: 0, store: new FakeStore() });
  port = service.address.port;
});

afterAll(async () => {
  await service.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('basic auth', () => {
  it('answers 401 with a challenge without credentials or with wrong ones, for the API, the pages, logs and items', async () => {
    for (const path of ['/daemonstatus.json', '/', '/logs/demo/quick/job1.log', '/items/demo/quick/job1.jl', '/jobs/x', '/nothing']) {
      expect((await rawGet(port, path)).status).toBe(401);
      expect((await rawGet(port, path, { authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` })).status).toBe(401);
    }
    const challenge = await fetch(`http://127.0.0.1:${port}/daemonstatus.json`);
    expect(challenge.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
  });

  it('answers with the credentials', async () => {
    expect((await rawGet(port, '/daemonstatus.json', AUTH)).status).toBe(200);
    expect((await rawGet(port, '/', AUTH)).status).toBe(200);
    expect(await rawGet(port, '/logs/demo/quick/job1.log', AUTH)).toEqual({ status: 200, body: 'a log line\n' });
  });
});

describe('the folder confinement of /logs/ and /items/', () => {
  const attempts = [
    '/logs/../../secret.log',
    '/logs/demo/../../../secret.log',
    '/logs/..%2f..%2fsecret.log',
    '/logs/demo/quick/..%2f..%2f..%2f..%2fsecret.log',
    '/logs/%2e%2e/%2e%2e/secret.log',
    '/logs/demo/quick/%2e%2e%2f%2e%2e%2f%2e%2e%2f..%2fsecret.log',
    '/logs/demo/quick/%252e%252e%252fsecret.log',
    '/logs/%252e%252e/%252e%252e/secret.log',
    '/logs/demo/quick/..\\..\\..\\secret.log',
    '/logs/demo/quick/..%5c..%5c..%5csecret.log',
    `/logs/${encodeURIComponent(join(root, 'secret.log'))}`,
    `/logs/demo/quick/${encodeURIComponent(join(root, 'secret.log'))}`,
    `/logs/${join(root, 'secret.log')}`,
    '/logs//etc/passwd',
    '/logs/..%2f..%2fetc/passwd',
    '/logs/demo/quick/link.log',
    '/logs/demo/up/secret.log',
    '/logs/demo/quick/job1.log%00.jl',
    '/logs/demo/quick/job1.log%00',
    '/items/demo/quick/../../../logs/demo/quick/job1.log',
    '/logs/demo/quick/job1.log/',
    '/logs/demo/quick/',
    '/logs/demo',
    '/logs/../seine.cfg',
    '/logs/demo/quick/..',
    '/items/..%2fseine.cfg',
  ];

  it.each(attempts)('refuses %s with 400 or 404 and never the file', async (path) => {
    const answer = await rawGet(port, path, AUTH);
    expect([400, 404]).toContain(answer.status);
    expect(answer.body).not.toContain(SECRET);
    expect(answer.body).not.toContain('password');
  });
});

describe('the bind rule', () => {
  it('refuses a non-loopback address without username and password, in one line saying how to set them', () => {
    const bare = mkdtempSync(join(tmpdir(), 'seine-serve-bind-'));
    try {
      expect(() => readServeConfig(bare, { bind: '0.0.0.0' })).toThrow(ServeUnprotectedBindError);
      expect(() => readServeConfig(bare, { bind: '0.0.0.0' })).toThrow(/set username and password under \[serve\] in .*seine\.cfg, or bind 127\.0\.0\.1$/);
      expect(readServeConfig(bare, { bind: '127.0.0.2' }).bind_address).toBe('127.0.0.2');
      expect(readServeConfig(dir, { bind: '0.0.0.0' }).username).toBe('admin');
      writeFileSync(join(bare, 'seine.cfg'), '[serve]\nmax_procs = 2\n');
      expect(() => readServeConfig(bare)).toThrow(ServeConfigError);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
