// The docs page's SQL box, off the page's thread: SQLite's WebAssembly build over the served
// database, read by range requests (sqlite-range.js). A sync XMLHttpRequest is what lets
// SQLite's synchronous reads wait for the network; browsers allow it in a worker only.
import init from './sqlite3.mjs';
import { openRangeDatabase } from './sqlite-range.js';

var MAX_ROWS = 1000;
var ready = null;

/** `length` bytes of the file from `start`, answered; `If-Range` (when given) makes a file another deploy replaced answer 200, never its bytes. */
function rangeRequest(url, start, length, validator) {
  var request = new XMLHttpRequest();
  request.open('GET', url, false);
  request.responseType = 'arraybuffer';
  request.setRequestHeader('Range', 'bytes=' + start + '-' + (start + length - 1));
  if (validator) request.setRequestHeader('If-Range', validator);
  request.send();
  return request;
}

/** The error of a read that found another file than the one the database was opened on. */
var CHANGED = 'DatabaseChanged';

function rangeReader(url, validator) {
  return function (start, length) {
    var request = rangeRequest(url, start, length, validator);
    if (request.status === 200) {
      var changed = new Error('the database changed on the server while it was read; reload the page');
      changed.name = CHANGED;
      throw changed;
    }
    if (request.status !== 206) throw new Error('a range of ' + url + ' answered ' + request.status);
    return new Uint8Array(request.response);
  };
}

/** The file's length and validator, from a first range request of its header. */
function probe(url) {
  var request = rangeRequest(url, 0, 100, null);
  var range = /\/(\d+)$/.exec(request.getResponseHeader('Content-Range') || '');
  if (request.status !== 206 || !range) throw new Error(url + ' does not answer range requests (status ' + request.status + ')');
  return {
    size: Number(range[1]),
    validator: request.getResponseHeader('ETag') || request.getResponseHeader('Last-Modified'),
    bytes: request.response.byteLength,
  };
}

function open(url) {
  if (!ready) {
    ready = init().then(function (sqlite3) {
      // a failed statement is shown in the status line; the build's console warning would say it twice
      sqlite3.config.warn = function () {};
      var file = probe(url);
      var opened = openRangeDatabase(sqlite3, { size: file.size, read: rangeReader(url, file.validator) });
      // the probe's request counts: it was read to answer the query too
      opened.stats.requests += 1;
      opened.stats.bytes += file.bytes;
      return { sqlite3: sqlite3, db: opened.db, stats: opened.stats, takeError: opened.takeError };
    });
  }
  return ready;
}

function run(state, sql) {
  var columns = [];
  var rows = [];
  var total = 0;
  try {
    state.db.exec({
      sql: sql,
      rowMode: 'array',
      columnNames: columns,
      callback: function (row) {
        total += 1;
        if (rows.length < MAX_ROWS) rows.push(row);
      },
    });
  } catch (error) {
    throw state.takeError() || error;
  }
  return { columns: columns, rows: rows, total: total };
}

self.onmessage = function (event) {
  var message = event.data;
  var started = performance.now();
  open(message.url)
    .then(function (state) {
      var before = { requests: state.stats.requests, bytes: state.stats.bytes };
      var result = run(state, message.sql);
      self.postMessage({
        id: message.id,
        columns: result.columns,
        rows: result.rows,
        total: result.total,
        sqlite: state.sqlite3.version.libVersion,
        read: { requests: state.stats.requests, bytes: state.stats.bytes, size: state.stats.size },
        query: { requests: state.stats.requests - before.requests, bytes: state.stats.bytes - before.bytes },
        ms: performance.now() - started,
      });
    })
    .catch(function (error) {
      // opened again on the file as it is now, at the next query
      if (error && error.name === CHANGED) ready = null;
      self.postMessage({ id: message.id, error: String((error && error.message) || error) });
    });
};
