/**
 * A real FTP server for a test: Debian's pyftpdlib (python3-pyftpdlib, run
 * with /usr/bin/python3) on a free loopback port, serving a temporary
 * folder to one user with a password (and to anonymous when asked), with
 * explicit TLS (AUTH TLS, pyOpenSSL) on a self-signed certificate made at
 * start when `tls` is set. `npm test` installs the packages first
 * (scripts/install-test-deps.sh).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FTP_USER = 'seine';
export const FTP_PASSWORD = 'ftp-s3cret-pw';

// Started with port 0 (or the given port, to come back on it); prints "PORT <n>" once listening.
const SERVER_SCRIPT = String.raw`
import sys, logging
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.servers import FTPServer
root, port, user, password, anonymous, tls, passive = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5] == '1', sys.argv[6] == '1', sys.argv[7] == '1'
logging.basicConfig(level=logging.CRITICAL)
authorizer = DummyAuthorizer()
authorizer.add_user(user, password, root, perm='elradfmwMT')
if anonymous:
    authorizer.add_anonymous(root, perm='elradfmwMT')
if tls:
    from pyftpdlib.handlers import TLS_FTPHandler as Handler
    import os, base64
    from OpenSSL import crypto
    pem = base64.b64decode(os.environ.get('SEINE_FTP_TEST_PEM', ''))
    if pem:  # made by an earlier server of this process: RSA key generation takes a second
        key, cert = crypto.load_privatekey(crypto.FILETYPE_PEM, pem), crypto.load_certificate(crypto.FILETYPE_PEM, pem)
    else:
        key = crypto.PKey(); key.generate_key(crypto.TYPE_RSA, 2048)
        cert = crypto.X509(); cert.get_subject().CN = '127.0.0.1'
        cert.set_serial_number(1); cert.gmtime_adj_notBefore(-60); cert.gmtime_adj_notAfter(86400)
        cert.set_issuer(cert.get_subject()); cert.set_pubkey(key); cert.sign(key, 'sha256')
        pem = crypto.dump_privatekey(crypto.FILETYPE_PEM, key) + crypto.dump_certificate(crypto.FILETYPE_PEM, cert)
        print('PEM', base64.b64encode(pem).decode(), flush=True)
    from OpenSSL import SSL
    context = SSL.Context(SSL.TLS_SERVER_METHOD)
    context.use_privatekey(key); context.use_certificate(cert)
    Handler.ssl_context = context
    from pyftpdlib.handlers import TLS_DTPHandler
    class DataHandler(TLS_DTPHandler):
        # pyftpdlib 1.5 closes a data connection that is readable before STOR, taking the TLS handshake a client
        # starts at once (basic-ftp does; Python's ftplib waits for STOR's reply) for a hang-up. Let the handshake run.
        def readable(self):
            if self._ssl_requested and not self._ssl_established:
                return True
            if not self.receive and not self._initialized:
                return False
            return super().readable()
    Handler.dtp_handler = DataHandler
    Handler.tls_control_required = True
    Handler.tls_data_required = True
else:
    from pyftpdlib.handlers import FTPHandler as Handler
if not passive:
    class ActiveOnly(Handler):
        def ftp_PASV(self, line):
            self.respond('502 Passive mode is off on this server.')
        ftp_EPSV = ftp_PASV
    Handler = ActiveOnly
Handler.authorizer = authorizer
# pyftpdlib waits 3 s before answering a wrong password (against guessing); the tests need not.
Handler.auth_failed_timeout = 0.05
Handler.passive_ports = None
Handler.permit_foreign_addresses = False
server = FTPServer(('127.0.0.1', port), Handler)
print('PORT', server.address[1], flush=True)
server.serve_forever(timeout=0.2)
`;

export interface FtpTestServer {
  readonly port: number;
  /** The folder the server serves: what a put wrote is here. */
  readonly root: string;
  /** `ftp://user:pass@127.0.0.1:port/dir` (ftps:// with tls); `credentials: null` for anonymous. */
  uri(dir?: string, credentials?: { user: string; password: string } | null): string;
  /** SIGKILLs the server: connections drop, new ones are refused. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export function pyftpdlibMissing(): string | undefined {
  const found = spawnSync('/usr/bin/python3', ['-c', 'import pyftpdlib, OpenSSL'], { encoding: 'utf8' });
  return found.status === 0
    ? undefined
    : 'cannot start the FTP test server: /usr/bin/python3 with pyftpdlib and pyOpenSSL is needed (apt-get install python3-pyftpdlib python3-openssl; `npm test` installs them)';
}

/** The self-signed certificate and key (PEM, base64) the first FTPS server made: the next ones reuse it, in memory only. */
let sharedPem = '';

function launch(root: string, port: number, tls: boolean, anonymous: boolean, passive: boolean): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn('/usr/bin/python3', ['-c', SERVER_SCRIPT, root, String(port), FTP_USER, FTP_PASSWORD, anonymous ? '1' : '0', tls ? '1' : '0', passive ? '1' : '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SEINE_FTP_TEST_PEM: sharedPem },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail('did not start within 10 s'), 10_000);
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`cannot start the FTP test server (${why}): ${output.trim().split('\n').slice(-3).join(' | ')}`));
    };
    let started = false;
    const onData = (chunk: Buffer): void => {
      if (started) return; // drained, not kept
      output += chunk.toString();
      sharedPem ||= /^PEM (\S+)$/m.exec(output)?.[1] ?? '';
      const match = /^PORT (\d+)$/m.exec(output);
      if (match) {
        started = true;
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code) => started || fail(`exited with ${code}`));
  });
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** `passive: false` refuses PASV and EPSV, so only active mode (PORT) transfers. */
export async function startFtpServer(options: { tls?: boolean; anonymous?: boolean; passive?: boolean } = {}): Promise<FtpTestServer> {
  const missing = pyftpdlibMissing();
  if (missing !== undefined) throw new Error(missing);
  const tls = options.tls ?? false;
  const anonymous = options.anonymous ?? false;
  const passive = options.passive ?? true;
  const dir = mkdtempSync(join(tmpdir(), 'seine-ftp-'));
  const root = join(dir, 'root');
  mkdirSync(root);
  let { child, port } = await launch(root, 0, tls, anonymous, passive);
  const scheme = tls ? 'ftps' : 'ftp';
  let restarting: Promise<void> = Promise.resolve();
  return {
    get port() {
      return port;
    },
    root,
    uri: (path = '', credentials = { user: FTP_USER, password: FTP_PASSWORD }) =>
      `${scheme}://${credentials ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@` : ''}127.0.0.1:${port}${path === '' ? '' : `/${path}`}`,
    stop: () => kill(child),
    restart: () =>
      (restarting = (async () => {
        await kill(child);
        ({ child, port } = await launch(root, port, tls, anonymous, passive));
      })()),
    close: async () => {
      // A restart a test started without waiting for must not leave a server behind.
      await restarting.catch(() => undefined);
      await kill(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
