/**
 * The service's own minimal pages at `/` and `/jobs/<id>` (every job: state,
 * times, items, errors, finish reason, links to log and items), used until
 * the dashboard's pages are wired in. Everything is escaped: job ids,
 * spiders and reasons come from requests.
 */
import type { JobSummary, JobsView } from './service-contracts.js';

function escape(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function row(job: JobSummary): string {
  const link = (url: string | null, label: string): string => (url === null ? '' : `<a href="${escape(url)}">${label}</a>`);
  return (
    `<tr><td><a href="/jobs/${encodeURIComponent(job.id)}">${escape(job.id)}</a></td><td>${escape(job.project)}</td><td>${escape(job.spider)}</td>` +
    `<td>${escape(job.state)}</td><td>${escape(job.start_time)}</td><td>${escape(job.end_time)}</td><td>${escape(job.items)}</td>` +
    `<td>${escape(job.errors)}</td><td>${escape(job.finish_reason)}</td><td>${link(job.log_url, 'log')} ${link(job.items_url, 'items')}</td></tr>`
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${body}</body></html>`;
}

const HEAD = '<tr><th>Job</th><th>Project</th><th>Spider</th><th>State</th><th>Start</th><th>End</th><th>Items</th><th>Errors</th><th>Finish reason</th><th></th></tr>';

export function jobsPage(view: JobsView): string {
  return page('seine serve: jobs', `<table>${HEAD}${view.list().map(row).join('')}</table>`);
}

export function jobPage(job: JobSummary): string {
  return page(`Job ${job.id}`, `<table>${HEAD}${row(job)}</table><p><a href="/">All jobs</a></p>`);
}
