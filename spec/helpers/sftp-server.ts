/**
 * A real SFTP server for a test: Debian's OpenSSH sshd on a free loopback
 * port with its own configuration, host key and authorized key in a
 * temporary folder, serving SFTP only (internal-sftp), stopped after. The
 * test user is whoever runs the tests, logging in with the generated key:
 * a password cannot be tested without a system account that has one, so
 * password login is off and a password is only ever refused.
 *
 * As root, sshd wants its privilege separation folder (/run/sshd, which
 * the Debian service makes at boot): it is made when missing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './free-port.js';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const SSHD = '/usr/sbin/sshd';

export interface SftpTestServer {
  readonly port: number;
  /** The folder puts go to (an absolute path on the server: sftp://…/<root>). */
  readonly root: string;
  readonly user: string;
  /** The private key the user logs in with (for SFTP_PRIVATE_KEY). */
  readonly keyFile: string;
  /** The host key's fingerprint as `ssh-keygen -lf` prints it (for SFTP_HOST_FINGERPRINT). */
  readonly hostFingerprint: string;
  /** `sftp://user[:password]@127.0.0.1:port<root>/<dir>`. */
  uri(dir?: string, password?: string): string;
  /** SIGKILLs sshd (and its sessions): connections drop, new ones are refused. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export function sshdMissing(): string | undefined {
  return existsSync(SSHD) && existsSync('/usr/bin/ssh-keygen')
    ? undefined
    : 'cannot start the SFTP test server: OpenSSH is needed (apt-get install openssh-server openssh-sftp-server; `npm test` installs them)';
}


function keygen(file: string): void {
  const made = spawnSync('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'seine-test', '-f', file], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`cannot start the SFTP test server: ssh-keygen failed: ${made.stderr.trim()}`);
}

function launch(config: string, port: number): Promise<ChildProcess | undefined> {
  const child = spawn(SSHD, ['-D', '-e', '-f', config, '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail('did not start within 10 s'), 10_000);
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      // A port taken since freePort() looked: the caller tries another.
      if (/Address already in use/.test(output)) resolve(undefined);
      else reject(new Error(`cannot start the SFTP test server (${why}): ${output.trim().split('\n').slice(-3).join(' | ')}`));
    };
    let ready = false;
    const onData = (chunk: Buffer): void => {
      if (ready) return; // drained, not kept
      output += chunk.toString();
      if (output.includes('Server listening on')) {
        ready = true;
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code) => ready || fail(`exited with ${code}`));
  });
}

/** The processes below `pid` (sshd's per-connection children, which call setsid and so leave its process group), from /proc. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after its last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // ended while we looked
    }
  }
  const found: number[] = [];
  const visit = (parent: number): void => {
    for (const child of parents.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** SIGKILLs sshd and the sessions it started: the server is gone as if its machine died. */
function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const sessions = child.pid === undefined ? [] : descendantsOf(child.pid);
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
    for (const pid of sessions) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

export async function startSftpServer(): Promise<SftpTestServer> {
  const missing = sshdMissing();
  if (missing !== undefined) throw new Error(missing);
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const dir = mkdtempSync(join(tmpdir(), 'seine-sftp-'));
  const root = join(dir, 'root');
  mkdirSync(root);
  const hostKey = join(dir, 'host_key');
  const keyFile = join(dir, 'client_key');
  keygen(hostKey);
  keygen(keyFile);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(`${keyFile}.pub`));
  const fingerprint = spawnSync('/usr/bin/ssh-keygen', ['-l', '-f', `${hostKey}.pub`], { encoding: 'utf8' }).stdout.split(' ')[1] ?? '';
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      // The temporary folder is not the user's home: sshd's ownership checks of it would refuse the key.
      'StrictModes no',
      'UsePAM no',
      'Subsystem sftp internal-sftp',
      'ForceCommand internal-sftp',
      // INFO says 'Server listening on', which tells that it is ready.
      'LogLevel INFO',
      '',
    ].join('\n'),
  );
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; child === undefined; attempt++) {
    if (attempt === 5) throw new Error('cannot start the SFTP test server: no free port after 5 tries');
    port = await freePort();
    child = await launch(config, port);
  }
  let running: ChildProcess = child;
  const user = userInfo().username;
  let restarting: Promise<void> = Promise.resolve();
  return {
    get port() {
      return port;
    },
    root,
    user,
    keyFile,
    hostFingerprint: fingerprint,
    uri: (path = '', password) => `sftp://${user}${password === undefined ? '' : `:${encodeURIComponent(password)}`}@127.0.0.1:${port}${root}${path === '' ? '' : `/${path}`}`,
    stop: () => kill(running),
    restart: () =>
      (restarting = (async () => {
        await kill(running);
        const again = await launch(config, port);
        if (again === undefined) throw new Error(`cannot restart the SFTP test server: port ${port} is taken`);
        running = again;
      })()),
    close: async () => {
      // A restart a test started without waiting for must not leave a server behind.
      await restarting.catch(() => undefined);
      await kill(running);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
