/**
 * FTP active mode (FEED_STORAGE_FTP_ACTIVE) for basic-ftp, which offers
 * passive mode only: a transfer strategy that listens on the control
 * connection's local address, sends PORT (EPRT over IPv6), and takes the
 * connection the server opens to it as the data connection, upgraded to TLS
 * (resuming the control connection's session) for ftps://.
 *
 * Servers connect at different moments: pyftpdlib at PORT, vsftpd after
 * STOR and before its 150 reply, which basic-ftp reads as "send now". So the
 * data socket basic-ftp is given is a stand-in that holds what is written
 * until the server's connection arrives, then passes it on.
 */
import { createServer, isIPv6, type Server, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect, TLSSocket } from 'node:tls';
import type * as BasicFtp from 'basic-ftp';

type FtpContext = BasicFtp.FTPContext;

/** The data socket basic-ftp writes to before the server has connected: writes wait for it. */
class PendingDataSocket extends Duplex {
  private socket: Socket | undefined;
  private waiting: Array<() => void> = [];

  attach(socket: Socket): void {
    this.socket = socket;
    socket.on('error', (error) => this.destroy(error));
    socket.on('data', (chunk: Buffer) => this.push(chunk));
    socket.on('end', () => this.push(null));
    for (const resume of this.waiting.splice(0)) resume();
  }

  private whenAttached(then: (socket: Socket) => void): void {
    if (this.socket) then(this.socket);
    else this.waiting.push(() => then(this.socket!));
  }

  override _read(): void {}

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.whenAttached((socket) => socket.write(chunk, encoding, callback));
  }

  override _final(callback: (error?: Error | null) => void): void {
    // The server reads the end of the upload as the end of the file: it answers 226 once the socket has closed.
    this.whenAttached((socket) => socket.end(() => callback()));
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    this.socket?.destroy();
    // Writes still waiting for the server end with the stream.
    this.waiting = [];
    callback(error);
  }

  // What basic-ftp's FTPContext, watchdog and progress tracker ask of a socket.
  setTimeout(ms: number): this {
    this.socket?.setTimeout(ms);
    return this;
  }
  get bytesRead(): number {
    return this.socket?.bytesRead ?? 0;
  }
  get bytesWritten(): number {
    return this.socket?.bytesWritten ?? 0;
  }
  get remoteAddress(): string | undefined {
    return this.socket?.remoteAddress;
  }
  get remotePort(): number | undefined {
    return this.socket?.remotePort;
  }
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as { port: number }).port));
  });
}

/** A basic-ftp TransferStrategy for active mode; `timeoutMs`: how long the server may take to connect. */
export function activeModeTransfer(timeoutMs: number): (ftp: FtpContext) => Promise<BasicFtp.FTPResponse> {
  return async (ftp) => {
    const control = ftp.socket;
    const host = (control.localAddress ?? '127.0.0.1').replace(/^::ffff:/i, '');
    const listener = createServer();
    const port = await listen(listener, host);
    const data = new PendingDataSocket();
    const timer = setTimeout(() => {
      listener.close();
      data.destroy(new Error(`the server did not open the data connection to ${host}:${port} within ${timeoutMs} ms (active mode: a firewall between it and seine?)`));
    }, timeoutMs);
    timer.unref();
    listener.once('connection', (raw) => {
      clearTimeout(timer);
      listener.close();
      if (control instanceof TLSSocket) {
        data.attach(tlsConnect({ ...ftp.tlsOptions, socket: raw, session: ftp.tlsSessionStore ?? control.getSession() }));
      } else {
        data.attach(raw);
      }
    });
    data.once('close', () => {
      clearTimeout(timer);
      listener.close();
    });
    ftp.dataSocket = data as unknown as Socket;
    const command = isIPv6(host) ? `EPRT |2|${host}|${port}|` : `PORT ${host.split('.').join(',')},${port >> 8},${port & 255}`;
    try {
      return await ftp.request(command);
    } catch (error) {
      data.destroy();
      throw error;
    }
  };
}
