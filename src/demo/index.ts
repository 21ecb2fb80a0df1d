/**
 * The embedded default: a bundled quotes site for the tutorial, the tests
 * and `seine demo`, and the spider the demo runs against it.
 */
export { startDemoSite, DemoSiteError, type DemoSite } from './demo-site.js';
export { DemoQuotesSpider } from './quotes-spider.js';
export { routeDemo, type DemoAnswer } from './route-demo.js';
export { AUTHORS, QUOTES, type DemoAuthor, type DemoQuote } from './quotes-data.js';
export { PAGE_SIZE, authorSlug } from './site-model.js';
