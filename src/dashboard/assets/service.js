// The job list of `seine serve` at /: reads dashboard/events (server-sent
// events: every job, on connect and at each change) and draws the table.
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var latest = null;

  // scrapyd's times are the service's local time, '2026-12-07 17:05:18.123456'.
  function parseTime(text) { return text ? new Date(text.replace(' ', 'T').slice(0, 23)).getTime() : null; }

  function duration(job, now) {
    var start = parseTime(job.start_time);
    if (start === null) return '–';
    var end = parseTime(job.end_time);
    var seconds = Math.max(0, Math.round(((end === null ? now : end) - start) / 1000));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return (h ? h + 'h ' : '') + (h || m ? m + 'm ' : '') + s + 's';
  }

  function td(row, content) {
    var cell = document.createElement('td');
    if (content instanceof Node) cell.appendChild(content); else cell.textContent = content === null || content === undefined ? '–' : String(content);
    row.appendChild(cell);
    return cell;
  }

  function link(href, label) {
    var a = document.createElement('a');
    a.href = href;
    a.textContent = label;
    return a;
  }

  function draw() {
    if (latest === null) return;
    var now = Date.now();
    var tbody = $('jobs').tBodies[0];
    tbody.textContent = '';
    var counts = { pending: 0, running: 0, finished: 0 };
    latest.jobs.forEach(function (job) {
      counts[job.state] = (counts[job.state] || 0) + 1;
      var tr = document.createElement('tr');
      tr.dataset.job = job.id;
      td(tr, link('jobs/' + encodeURIComponent(job.id) + '/', job.id));
      td(tr, job.project);
      td(tr, job.spider);
      td(tr, job.version);
      var state = document.createElement('span');
      state.className = 'state ' + job.state + (job.dashboard_port !== null && job.state === 'running' ? ' live' : '');
      state.textContent = job.state;
      td(tr, state);
      td(tr, job.start_time ? job.start_time.slice(0, 19) : null);
      td(tr, duration(job, now));
      td(tr, job.items);
      td(tr, job.errors);
      td(tr, job.finish_reason);
      var files = document.createElement('span');
      if (job.log_url) files.appendChild(link(job.log_url, 'log'));
      if (job.log_url && job.items_url) files.appendChild(document.createTextNode(' '));
      if (job.items_url) files.appendChild(link(job.items_url, 'items'));
      td(tr, files);
      tbody.appendChild(tr);
    });
    $('empty').hidden = latest.jobs.length > 0;
    $('counts').textContent = counts.running + ' running, ' + counts.pending + ' pending, ' + counts.finished + ' finished';
  }

  var source = new EventSource('dashboard/events');
  source.addEventListener('jobs', function (event) {
    latest = JSON.parse(event.data);
    $('state').textContent = 'live';
    $('state').className = 'state running';
    draw();
  });
  source.addEventListener('error', function () {
    $('state').textContent = 'disconnected';
    $('state').className = 'state closing';
  });
  // Durations of running jobs move between two lists.
  setInterval(draw, 1000);
})();
