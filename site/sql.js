// The docs page's SQL box: runs a read-only query against the served database in a worker
// (sql-worker.js) that reads only the byte ranges SQLite asks for, and says how much it read.
// Plain script, no build step, no other host.
(function () {
  'use strict';

  var box = document.getElementById('sql');
  var form = document.getElementById('sql-form');
  var input = document.getElementById('sql-query');
  var button = document.getElementById('sql-run');
  var status = document.getElementById('sql-status');
  var output = document.getElementById('sql-output');
  if (!box || !form || !input || !status || !output) return;
  var url = box.getAttribute('data-database');
  // a query that has not answered in this long is stopped with its worker
  var PATIENCE_MS = 60000;
  var worker = null;
  var next = 0;
  var pending = null;

  function bytes(n) {
    if (n < 1000) return n + ' B';
    if (n < 1e6) return (n / 1e3).toFixed(1) + ' kB';
    return (n / 1e6).toFixed(1) + ' MB';
  }

  function say(text, state) {
    status.textContent = text;
    status.setAttribute('data-state', state);
  }

  function cell(value) {
    var td = document.createElement('td');
    if (value === null) {
      td.textContent = 'NULL';
      td.className = 'null';
    } else if (value instanceof Uint8Array) {
      td.textContent = '(' + value.byteLength + ' bytes)';
    } else {
      td.textContent = String(value);
    }
    return td;
  }

  function show(reply) {
    output.textContent = '';
    var head = output.createTHead().insertRow();
    reply.columns.forEach(function (name) {
      var th = document.createElement('th');
      th.scope = 'col';
      th.textContent = name;
      head.appendChild(th);
    });
    var body = output.createTBody();
    reply.rows.forEach(function (row) {
      var tr = body.insertRow();
      row.forEach(function (value) {
        tr.appendChild(cell(value));
      });
    });
    var shown = reply.total > reply.rows.length ? 'the first ' + reply.rows.length + ' of ' + reply.total + ' rows' : reply.total + (reply.total === 1 ? ' row' : ' rows');
    var share = ((100 * reply.read.bytes) / reply.read.size).toFixed(2);
    say(
      shown +
        ' in ' +
        (reply.ms / 1000).toFixed(2) +
        ' s. This query read ' +
        bytes(reply.query.bytes) +
        ' in ' +
        reply.query.requests +
        (reply.query.requests === 1 ? ' request' : ' requests') +
        '; the page has read ' +
        bytes(reply.read.bytes) +
        ' of the file’s ' +
        bytes(reply.read.size) +
        ' (' +
        share +
        ' %). SQLite ' +
        reply.sqlite +
        '.',
      'done',
    );
    status.setAttribute('data-read-bytes', String(reply.read.bytes));
    status.setAttribute('data-file-bytes', String(reply.read.size));
    status.setAttribute('data-rows', String(reply.total));
  }

  function stop(message) {
    if (worker) worker.terminate();
    worker = null;
    pending = null;
    button.disabled = false;
    say(message, 'error');
  }

  function run() {
    if (pending) return;
    if (!worker) {
      worker = new Worker('/sql-worker.js', { type: 'module' });
      worker.onmessage = function (event) {
        var reply = event.data;
        if (!pending || reply.id !== pending.id) return;
        clearTimeout(pending.timer);
        pending = null;
        button.disabled = false;
        if (reply.error) {
          output.textContent = '';
          say(reply.error, 'error');
        } else {
          show(reply);
        }
      };
      worker.onerror = function (event) {
        stop('The query’s worker failed: ' + (event.message || 'it could not start'));
      };
    }
    var id = ++next;
    pending = {
      id: id,
      timer: setTimeout(function () {
        stop('Stopped after ' + PATIENCE_MS / 1000 + ' s without an answer.');
      }, PATIENCE_MS),
    };
    button.disabled = true;
    say('Running…', 'running');
    worker.postMessage({ id: id, url: url, sql: input.value });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    run();
  });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run();
    }
  });
  Array.prototype.forEach.call(box.querySelectorAll('[data-sql]'), function (example) {
    example.addEventListener('click', function () {
      input.value = example.getAttribute('data-sql');
      run();
    });
  });
})();
