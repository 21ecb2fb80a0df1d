/**
 * The browser benchmark's site, in a process of its own: `pages` pages
 * whose ten quotes a script writes into the page (a plain download has
 * none), each linking nowhere. Prints `{"url": …}` once listening; stops
 * when its standard input closes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const pages = Number(process.argv[2] ?? 200);
const quotes = Array.from({ length: 10 }, (_, i) => [`Quote number ${i} of the page, long enough to be a real quote.`, `Author ${i}`]);

const server = createServer((req, res) => {
  const match = /^\/page\/(\d+)$/.exec(req.url ?? '');
  if (match === null || Number(match[1]) > pages) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<html><head><title>Page ${match[1]}</title>
<style>body { font-family: sans-serif } .quote { margin: 1em }</style></head><body><h1>Page ${match[1]}</h1><div id="quotes"></div>
<script>
for (const [text, author] of ${JSON.stringify(quotes)}) {
  document.getElementById('quotes').insertAdjacentHTML('beforeend', '<div class="quote"><span class="text">' + text + '</span> <small class="author">' + author + '</small></div>');
}
</script></body></html>`);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => server.close(() => process.exit(0)));
