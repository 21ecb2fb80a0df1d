/**
 * The registry of `seine` commands. A new command is one file in this folder
 * and one entry here; only commands that work are listed.
 */
import type { CommandEntry, SeineCommand } from '../command.js';

function entry(name: string, description: string, load: () => Promise<SeineCommand>): CommandEntry {
  return { name, description, load };
}

// The descriptions are the commands' own (spec/cli/main.spec.ts checks each entry against its loaded command).
export const COMMANDS: readonly CommandEntry[] = [
  entry('bench', 'Run quick benchmark test', async () => (await import('./bench.js')).benchCommand),
  entry('check', 'Check spider contracts', async () => (await import('./check.js')).checkCommand),
  entry('crawl', 'Run a spider', async () => (await import('./crawl.js')).crawlCommand),
  entry('demo', 'Crawl a bundled demo site with the tutorial spider', async () => (await import('./demo.js')).demoCommand),
  entry('deploy', 'Deploy the project to a seine serve (scrapyd) server', async () => (await import('./deploy.js')).deployCommand),
  entry('fetch', 'Fetch a URL using the seine downloader', async () => (await import('./fetch.js')).fetchCommand),
  entry('frontier', 'Show, pause, resume or clear a crawl shared through Redis', async () => (await import('./frontier.js')).frontierCommand),
  entry('genspider', 'Generate new spider using pre-defined templates', async () => (await import('./genspider.js')).genspiderCommand),
  entry('list', 'List available spiders', async () => (await import('./list.js')).listCommand),
  entry('parse', 'Parse URL (using its spider) and print the results', async () => (await import('./parse.js')).parseCommand),
  entry('runspider', 'Run a self-contained spider (without creating a project)', async () => (await import('./runspider.js')).runspiderCommand),
  entry('serve', "Run crawls as a service with scrapyd's JSON API", async () => (await import('./serve.js')).serveCommand),
  entry('settings', 'Get settings values', async () => (await import('./settings.js')).settingsCommand),
  entry('shell', 'Interactive scraping console', async () => (await import('./shell.js')).shellCommand),
  entry('startproject', 'Create new project', async () => (await import('./startproject.js')).startprojectCommand),
  entry('version', 'Print seine version', async () => (await import('./version.js')).versionCommand),
  entry('view', 'Open URL in browser, as seen by seine', async () => (await import('./view.js')).viewCommand),
];
