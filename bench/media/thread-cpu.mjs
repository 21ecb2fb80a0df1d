// CPU time of each thread of the process, written to stderr when it exits:
// how a media crawl's CPU splits between the event loop, libuv's threads
// (sharp's jobs, file-system calls), libvips' workers and V8's garbage
// collector threads. Preload it into seine's process:
//   SEINE_BENCH_NODE_ARGS="--import $PWD/bench/media/thread-cpu.mjs" npm run bench:media -- --no-feed --no-scrapy --keep
// and read the last lines of seine.log in the kept folder. Linux only
// (/proc/self/task). Threads Node leaves unnamed are all called "node": the
// V8 platform's start with the process, libuv's 4 with its first file or
// sharp call, so their CPU tells them apart. A plain JavaScript file, so
// that the crawler runs without tsx, as users run it.
import { readdirSync, readFileSync, writeSync } from 'node:fs';

process.on('exit', () => {
  const threads = [];
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime + stime, in clock ticks (100 a second on Linux).
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
      threads.push({ tid: Number(tid), name: Number(tid) === process.pid ? 'main' : name, seconds });
    } catch {
      // The thread ended while it was read.
    }
  }
  const total = threads.reduce((sum, t) => sum + t.seconds, 0);
  const lines = [`thread CPU at exit: ${total.toFixed(2)} s in ${threads.length} threads`];
  for (const t of threads.sort((a, b) => a.tid - b.tid)) lines.push(`  ${String(t.tid).padStart(7)} ${t.name.padEnd(16)} ${t.seconds.toFixed(2)} s`);
  writeSync(2, `${lines.join('\n')}\n`);
});
