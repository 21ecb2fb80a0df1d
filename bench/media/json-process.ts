/**
 * Starts a helper of bench:media (the image site, the S3 server) as a
 * process of its own, so the crawler measured has the CPU to itself, and
 * reads the one JSON line it prints once it listens. Its stdin stays open:
 * the helper stops when it closes, so it never outlives the benchmark.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export async function startJsonProcess<T>(script: string, args: string[] = []): Promise<{ info: T; process: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const info = await new Promise<T>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as T);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with status ${code} before it listened`)));
  });
  return { info, process: child };
}

/** Closes the helper's stdin and waits for it to exit (the S3 server removes its folder then). */
export function stopJsonProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.stdin!.end();
  });
}
