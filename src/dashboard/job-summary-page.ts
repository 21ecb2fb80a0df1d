/**
 * A job's page in `seine serve` when it has no live dashboard (pending, or
 * finished): its summary, written on the server. Every value is escaped:
 * job ids, spiders and reasons come from requests.
 */
import type { ServiceJob } from './service-pages.js';

function escape(text: unknown): string {
  return String(text ?? '–').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function jobSummaryPage(job: ServiceJob): string {
  const link = (url: string | null, label: string): string => (url === null ? '–' : `<a href="${escape(url)}">${label}</a>`);
  const rows: Array<[string, string]> = [
    ['project', escape(job.project)],
    ['spider', escape(job.spider)],
    ['version', escape(job.version)],
    ['state', `<span class="state ${escape(job.state)}">${escape(job.state)}</span>`],
    ['started', escape(job.start_time)],
    ['ended', escape(job.end_time)],
    ['items', escape(job.items)],
    ['errors', escape(job.errors)],
    ['finish reason', escape(job.finish_reason)],
    ['log', link(job.log_url, 'log')],
    ['items file', link(job.items_url, 'items')],
  ];
  const note = job.state === 'running' ? '<p class="none">This job runs without a live dashboard.</p>' : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Job ${escape(job.id)} — seine</title>
${job.state === 'finished' ? '' : '<meta http-equiv="refresh" content="5">'}
<link rel="stylesheet" href="assets/dashboard.css"></head>
<body><header><h1><a class="brand" href="/">seine</a> job <span id="job">${escape(job.id)}</span></h1></header>
${note}<table class="summary">${rows.map(([name, value]) => `<tr><th>${name}</th><td>${value}</td></tr>`).join('')}</table>
</body></html>
`;
}
