import { openInBrowser } from '../../shell/open-in-browser.js';
import { defineCommand } from '../command.js';
import { fetchUrl, withFetchOptions, type FetchUrlArgs } from '../fetch-url.js';

/**
 * `seine view <url>`: fetches the URL as `seine fetch` does and opens the
 * response in the local browser (BROWSER, else the platform's opener), with a
 * `<base>` tag so the page's relative links, stylesheets and images resolve:
 * the page as seine sees it, which can differ from what a browser gets.
 */
export const viewCommand = defineCommand<FetchUrlArgs>({
  name: 'view',
  positionals: '<url>',
  description: 'Open URL in browser, as seen by seine',
  builder: (parser) => withFetchOptions(parser) as never,
  async handler(context) {
    const { response } = await fetchUrl(context, 'view');
    openInBrowser(response, { env: context.env });
    return 0;
  },
});
