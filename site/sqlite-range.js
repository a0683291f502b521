// A read-only SQLite file read through byte ranges: a VFS for SQLite's WebAssembly build whose
// reads go to a synchronous range reader (a sync XMLHttpRequest in the docs page's worker, a file
// in the tests). SQLite asks for one page at a time; pages are kept in a bounded cache, and a read
// that continues the previous fetch doubles the next fetch's length, so a scan takes a few
// requests while a lookup by key still reads only the pages on its path.

var VFS_NAME = 'range';
var files = new Map();
var handles = new Map();
var opened = 0;
var installedOn = null;

/**
 * Opens the file a range reader gives as a read-only database.
 * @param {any} sqlite3 the initialised module of @sqlite.org/sqlite-wasm
 * @param {{ size: number, read: (start: number, length: number) => Uint8Array, pageSize?: number, maxSpan?: number, maxPages?: number }} source
 *   the file's length, its reader, SQLite's page size, the longest fetch in pages, the pages kept
 * @returns {{ db: import('@sqlite.org/sqlite-wasm').Database, stats: { requests: number, bytes: number, size: number }, takeError: () => unknown }}
 *   the database, what was read, and the error of the last read that failed (SQLite itself only says "disk I/O error")
 */
export function openRangeDatabase(sqlite3, source) {
  install(sqlite3);
  var file = rangeFile(source);
  var name = '/range-' + ++opened + '.sqlite';
  files.set(name, file);
  try {
    var db = new sqlite3.oo1.DB({ filename: 'file:' + name + '?immutable=1', flags: 'r', vfs: VFS_NAME });
  } finally {
    files.delete(name);
  }
  return {
    db: db,
    stats: file.stats,
    takeError: function () {
      var error = file.error;
      file.error = undefined;
      return error;
    },
  };
}

/** A file's pages as a cache over its reader. */
function rangeFile(source) {
  var pageSize = source.pageSize || 4096;
  var maxSpan = source.maxSpan || 64;
  var maxPages = source.maxPages || 8192;
  var size = source.size;
  var stats = { requests: 0, bytes: 0, size: size };
  var pages = new Map();
  var lastFetchEnd = -1;
  var span = 1;

  function fetchFrom(page) {
    span = page === lastFetchEnd ? Math.min(span * 2, maxSpan) : 1;
    var start = page * pageSize;
    var length = Math.min(span * pageSize, size - start);
    var bytes = source.read(start, length);
    if (bytes.byteLength !== length) throw new Error('asked for ' + length + ' bytes at ' + start + ', got ' + bytes.byteLength);
    stats.requests += 1;
    stats.bytes += length;
    for (var at = 0; at < length; at += pageSize) keep(page + at / pageSize, bytes.subarray(at, Math.min(at + pageSize, length)));
    lastFetchEnd = page + Math.ceil(length / pageSize);
  }

  function keep(page, bytes) {
    pages.delete(page);
    if (pages.size >= maxPages) pages.delete(pages.keys().next().value);
    pages.set(page, bytes);
  }

  return {
    size: size,
    stats: stats,
    error: undefined,
    /** Copies [offset, offset + length) into target; returns how many bytes the file had there. */
    readInto: function (target, offset, length) {
      var end = Math.min(offset + length, size);
      var written = 0;
      for (var at = offset; at < end; ) {
        var page = Math.floor(at / pageSize);
        if (!pages.has(page)) fetchFrom(page);
        var bytes = pages.get(page);
        keep(page, bytes);
        var from = at - page * pageSize;
        var take = Math.min(bytes.byteLength - from, end - at);
        target.set(bytes.subarray(from, from + take), written);
        written += take;
        at += take;
      }
      return written;
    },
  };
}

/** Registers the VFS with this SQLite module, once. */
function install(sqlite3) {
  if (installedOn === sqlite3) return;
  if (installedOn) throw new Error('the range VFS is registered with another SQLite module');
  installedOn = sqlite3;
  var capi = sqlite3.capi;
  var wasm = sqlite3.wasm;
  var io = new capi.sqlite3_io_methods();
  io.$iVersion = 1;
  var vfs = new capi.sqlite3_vfs();
  vfs.$iVersion = 2;
  vfs.$szOsFile = capi.sqlite3_file.structInfo.sizeof;
  vfs.$mxPathname = 1024;
  // time and randomness are the default VFS's own
  var host = new capi.sqlite3_vfs(capi.sqlite3_vfs_find(null));
  ['xRandomness', 'xSleep', 'xCurrentTime', 'xCurrentTimeInt64', 'xGetLastError'].forEach(function (method) {
    vfs['$' + method] = host['$' + method];
  });
  host.dispose();
  var readOnly = function () {
    return capi.SQLITE_READONLY;
  };
  var ok = function () {
    return 0;
  };
  sqlite3.vfs.installVfs({
    io: {
      struct: io,
      methods: {
        xClose: function (pFile) {
          handles.delete(pFile);
          return 0;
        },
        xRead: function (pFile, pDest, amount, offset) {
          var file = handles.get(pFile);
          var target = wasm.heap8u().subarray(pDest, pDest + amount);
          try {
            var got = file.readInto(target, Number(offset), amount);
          } catch (e) {
            file.error = e;
            return capi.SQLITE_IOERR_READ;
          }
          if (got === amount) return 0;
          target.fill(0, got);
          return capi.SQLITE_IOERR_SHORT_READ;
        },
        xWrite: readOnly,
        xTruncate: readOnly,
        xSync: ok,
        xFileSize: function (pFile, pSize) {
          wasm.poke64(pSize, BigInt(handles.get(pFile).size));
          return 0;
        },
        xLock: ok,
        xUnlock: ok,
        xCheckReservedLock: function (_pFile, pOut) {
          wasm.poke32(pOut, 0);
          return 0;
        },
        xFileControl: function () {
          return capi.SQLITE_NOTFOUND;
        },
        xSectorSize: function () {
          return 4096;
        },
        xDeviceCharacteristics: function () {
          return capi.SQLITE_IOCAP_IMMUTABLE;
        },
      },
    },
    vfs: {
      struct: vfs,
      name: VFS_NAME,
      methods: {
        xOpen: function (_pVfs, zName, pFile, flags, pOutFlags) {
          var file = zName ? files.get(wasm.cstrToJs(zName)) : undefined;
          if (!file || flags & capi.SQLITE_OPEN_READWRITE) return capi.SQLITE_CANTOPEN;
          handles.set(pFile, file);
          var struct = new capi.sqlite3_file(pFile);
          struct.$pMethods = io.pointer;
          struct.dispose();
          if (pOutFlags) wasm.poke32(pOutFlags, capi.SQLITE_OPEN_READONLY);
          return 0;
        },
        xDelete: function () {
          return capi.SQLITE_IOERR_DELETE;
        },
        xAccess: function (_pVfs, _zName, _flags, pOut) {
          wasm.poke32(pOut, 0);
          return 0;
        },
        xFullPathname: function (_pVfs, zName, nOut, zOut) {
          wasm.cstrncpy(zOut, zName, nOut);
          return 0;
        },
      },
    },
  });
}
