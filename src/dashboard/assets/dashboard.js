// The page of one crawl's dashboard: reads /events (server-sent events, a
// snapshot a second) and draws it; the buttons POST to api/… with the header
// the server asks of controls. Plain browser JavaScript, no build step.
/* global uPlot */
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var charts = {};
  var CHARTS = [
    ['pages', 'pages/min', '#2b6cb0'],
    ['items', 'items/min', '#2f855a'],
    ['errors', 'errors/min', '#c53030'],
  ];

  function chartWidth(el) { return Math.max(280, el.clientWidth - 16); }

  function makeChart(key, label, color) {
    var el = $('chart-' + key);
    var options = {
      title: label, width: chartWidth(el), height: 180, legend: { show: false },
      scales: { x: { time: false } },
      axes: [{ label: 'seconds' }, {}],
      series: [{ label: 's' }, { label: label, stroke: color, fill: color + '22', width: 2 }],
    };
    charts[key] = new uPlot(options, [[], []], el);
  }

  function text(value) { return value === null || value === undefined ? '–' : String(value); }

  function cell(row, value, className) {
    var td = document.createElement('td');
    td.textContent = text(value);
    if (className) td.className = className;
    row.appendChild(td);
  }

  function fillRows(tbody, rows) {
    tbody.textContent = '';
    rows.forEach(function (values) {
      var tr = document.createElement('tr');
      values.forEach(function (v) { cell(tr, v[0], v[1]); });
      tbody.appendChild(tr);
    });
  }

  function draw(s) {
    $('spider').textContent = s.spider;
    document.title = s.spider + ' — seine dashboard';
    var state = $('state');
    state.textContent = s.state;
    state.className = 'state ' + s.state;
    $('elapsed').textContent = s.elapsedSeconds + ' s';
    ['requests', 'responses', 'items', 'errors'].forEach(function (k) { $('t-' + k).textContent = s.totals[k]; });
    CHARTS.forEach(function (c) { charts[c[0]].setData([s.series.t, s.series[c[0]]]); });
    fillRows($('slots').tBodies[0], s.slots.map(function (slot) {
      return [[slot.key], [slot.active], [slot.waiting], [slot.concurrency],
        [slot.delaySeconds === null ? null : slot.delaySeconds + ' s'],
        [slot.ratePerMinute === null ? null : slot.ratePerMinute + '/min'],
        [slot.latencySeconds === null ? null : slot.latencySeconds + ' s'],
        [slot.pausedForSeconds === null ? null : slot.pausedForSeconds + ' s'],
        [slot.responses], [slot.bans['429'], slot.bans['429'] ? 'ban' : ''], [slot.bans['403'], slot.bans['403'] ? 'ban' : '']];
    }));
    fillRows($('statuses').tBodies[0], Object.keys(s.statuses).sort().map(function (k) { return [[k], [s.statuses[k]]]; }));
    var errors = $('errors');
    errors.textContent = '';
    if (s.errors.length === 0) {
      var none = document.createElement('p');
      none.className = 'none';
      none.textContent = 'None.';
      errors.appendChild(none);
    }
    s.errors.forEach(function (e) {
      var details = document.createElement('details');
      var summary = document.createElement('summary');
      summary.textContent = e.time.slice(11, 19) + ' ' + e.kind + ' ' + (e.url || '') + ' — ' + e.message;
      var pre = document.createElement('pre');
      pre.textContent = e.stack;
      details.appendChild(summary);
      details.appendChild(pre);
      errors.appendChild(details);
    });
    var log = $('log');
    var atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    log.textContent = s.log.map(function (l) { return l.time.slice(11, 19) + ' [' + l.logger + '] ' + l.level + ': ' + l.message; }).join('\n');
    if (atBottom) log.scrollTop = log.scrollHeight;
    var finished = s.state === 'finished';
    $('pause').disabled = s.state !== 'running';
    $('resume').disabled = s.state !== 'paused';
    $('stop').disabled = finished;
    $('stop').textContent = s.state === 'closing' ? 'Cancel' : 'Stop';
    if (finished) {
      $('finish').hidden = false;
      $('finish').textContent = 'Finished: ' + s.finishReason;
    }
    return finished;
  }

  function control(name) {
    return fetch('api/' + name, { method: 'POST', headers: { 'x-seine-dashboard': '1' } })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        if (answer.state) {
          var state = $('state');
          state.textContent = answer.state;
          state.className = 'state ' + answer.state;
          $('pause').disabled = answer.state !== 'running';
          $('resume').disabled = answer.state !== 'paused';
          $('stop').textContent = answer.state === 'closing' ? 'Cancel' : 'Stop';
        }
      });
  }

  CHARTS.forEach(function (c) { makeChart(c[0], c[1], c[2]); });
  // For a look from the console (and the tests): the charts and their data.
  window.seineDashboard = { charts: charts };
  window.addEventListener('resize', function () {
    CHARTS.forEach(function (c) { var el = $('chart-' + c[0]); charts[c[0]].setSize({ width: chartWidth(el), height: 180 }); });
  });
  $('pause').addEventListener('click', function () { control('pause'); });
  $('resume').addEventListener('click', function () { control('resume'); });
  $('stop').addEventListener('click', function () { control('stop'); });

  var source = new EventSource('events');
  source.addEventListener('snapshot', function (event) {
    if (draw(JSON.parse(event.data))) source.close();
  });
  source.addEventListener('error', function () {
    if ($('state').textContent !== 'finished') $('state').textContent = 'disconnected';
  });
})();
