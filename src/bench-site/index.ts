/** `seine bench`'s local site and the spider that crawls it. */
export { renderBenchPage, type BenchPage } from './bench-page.js';
export { startBenchServer, type BenchServer } from './bench-server.js';
export { BenchSpider } from './bench-spider.js';
