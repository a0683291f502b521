// The docs page's "Try it" box: fetches a URL under /v2/ from this same site and shows the JSON
// pretty-printed, every API link in it clickable. Plain script, no build step, no other host.
(function () {
  'use strict';

  var meta = document.querySelector('meta[name="api-base-url"]');
  // Links in the documents carry the base URL they were built with; the page fetches the same
  // paths from the host that served it, so a preview on another port still follows them.
  var BASE = meta ? meta.getAttribute('content').replace(/\/+$/, '') : '';
  var PREFIX = '/v2';

  var form = document.getElementById('try-form');
  var input = document.getElementById('try-url');
  var button = document.getElementById('try-send');
  var status = document.getElementById('try-status');
  var output = document.getElementById('try-output');
  var raw = document.getElementById('try-raw');
  var ref = document.getElementById('try-ref');
  var section = document.getElementById('try');
  if (!form || !input || !status || !output) return;

  var REASONS = { 200: 'OK', 304: 'Not Modified', 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 500: 'Server Error' };

  /** The same-site path (with query) a typed or linked URL names, or null when it is not under /v2. */
  function apiPath(value) {
    var text = String(value).trim();
    if (!text) return null;
    if (BASE && (text === BASE || text.indexOf(BASE + '/') === 0 || text.indexOf(BASE + '?') === 0)) {
      text = PREFIX + text.slice(BASE.length);
    } else if (/^[a-z][a-z0-9+.-]*:/i.test(text)) {
      var url;
      try {
        url = new URL(text);
      } catch (e) {
        return null;
      }
      if (url.origin !== location.origin) return null;
      text = url.pathname + url.search;
    } else if (text.charAt(0) !== '/') {
      text = /^v2(\/|\?|$)/.test(text) ? '/' + text : PREFIX + '/' + text;
    }
    return text === PREFIX || text.indexOf(PREFIX + '/') === 0 || text.indexOf(PREFIX + '?') === 0 ? text : null;
  }

  /** A link in a document: one under the base URL opens in the box, any other web URL normally. */
  function linkFor(url) {
    var a = document.createElement('a');
    var path = apiPath(url);
    if (path !== null && /^https?:/.test(url)) {
      a.href = path;
      a.setAttribute('data-try', '');
    } else {
      a.href = url;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
    }
    a.textContent = url;
    return a;
  }

  /**
   * Renders a value exactly as JSON.stringify(value, null, 2) writes it, with keys, strings,
   * numbers and literals in spans and URLs as links. Plain text is gathered and written in runs,
   * so a large document makes few nodes.
   */
  function renderJson(value) {
    var fragment = document.createDocumentFragment();
    var text = '';
    function flush() {
      if (text) fragment.appendChild(document.createTextNode(text));
      text = '';
    }
    function span(cls, content) {
      flush();
      var s = document.createElement('span');
      s.className = cls;
      s.textContent = content;
      fragment.appendChild(s);
    }
    function string(s, cls) {
      var quoted = JSON.stringify(s);
      if (cls === 'j-str' && /^https?:\/\/\S+$/.test(s) && quoted === '"' + s + '"') {
        flush();
        var wrap = document.createElement('span');
        wrap.className = cls;
        wrap.appendChild(document.createTextNode('"'));
        wrap.appendChild(linkFor(s));
        wrap.appendChild(document.createTextNode('"'));
        fragment.appendChild(wrap);
      } else span(cls, quoted);
    }
    function visit(v, indent) {
      if (v === null || typeof v === 'boolean') span('j-lit', String(v));
      else if (typeof v === 'number') span('j-num', JSON.stringify(v));
      else if (typeof v === 'string') string(v, 'j-str');
      else if (Array.isArray(v)) {
        if (v.length === 0) {
          text += '[]';
          return;
        }
        var inner = indent + '  ';
        text += '[\n';
        for (var i = 0; i < v.length; i++) {
          text += inner;
          visit(v[i], inner);
          text += i < v.length - 1 ? ',\n' : '\n';
        }
        text += indent + ']';
      } else {
        var keys = Object.keys(v);
        if (keys.length === 0) {
          text += '{}';
          return;
        }
        var pad = indent + '  ';
        text += '{\n';
        for (var k = 0; k < keys.length; k++) {
          text += pad;
          string(keys[k], 'j-key');
          text += ': ';
          visit(v[keys[k]], pad);
          text += k < keys.length - 1 ? ',\n' : '\n';
        }
        text += indent + '}';
      }
    }
    visit(value, '');
    flush();
    return fragment;
  }

  function size(bytes) {
    if (bytes < 1024) return bytes + ' B';
    if (bytes < 1024 * 1024) return (bytes / 1024).toFixed(1) + ' kB';
    return (bytes / 1024 / 1024).toFixed(1) + ' MB';
  }

  /** One line on what came back, for the live region. */
  function describe(data) {
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      if (data.error === 'bad_parameter' && typeof data.parameter === 'string') return 'parameter “' + data.parameter + '” does not take “' + data.value + '”';
      if (typeof data.count === 'number' && Array.isArray(data.results)) {
        return data.count + (data.count === 1 ? ' entry' : ' entries') + ', ' + data.results.length + ' on this page';
      }
      if (typeof data.name === 'string' && typeof data.id === 'number') return '“' + data.name + '” (id ' + data.id + ')';
      if (typeof data.id === 'number') return 'id ' + data.id;
      var n = Object.keys(data).length;
      return n + (n === 1 ? ' field' : ' fields');
    }
    if (typeof data === 'string') return JSON.stringify(data);
    return '';
  }

  /** `creature-form` → `CreatureForm`, as the reference names a kind's shapes. */
  function pascalCase(kind) {
    return kind.split('-').map(function (word) { return word.charAt(0).toUpperCase() + word.slice(1); }).join('');
  }

  /** The reference section of an answer as of a game: `as-of/{v}/{kind}[/{key}[/matchups]]`, or a creature's matchups today. */
  function asOfReference(segments) {
    if (segments[segments.length - 1] === 'matchups') return 'shape-Matchups';
    return segments[0] === 'as-of' && segments.length >= 3 ? 'shape-' + pascalCase(segments[2]) + 'AsOf' : null;
  }

  /** The reference section that describes the answer `data` to `path`, or null when the page has none. */
  function referenceFor(path, data) {
    var rest = path.split('?')[0].slice(PREFIX.length).replace(/^\/+|\/+$/g, '');
    var segments = rest.toLowerCase().split('/');
    var id = data && data.error === 'bad_parameter' ? 'shape-BadParameter'
      : data && data.error === 'not_found' ? 'shape-AsOfNotFound'
      : rest === '' ? 'shape-RootIndex' : rest === 'meta' ? 'shape-Meta' : rest === 'search' ? 'shape-SearchPage'
      : asOfReference(segments) || 'ref-' + segments[0];
    return document.getElementById(id) ? id : null;
  }

  function setStatus(state, message) {
    status.setAttribute('data-state', state);
    status.textContent = message;
  }

  var latest = 0;

  /** Loads `path` into the box and shows its answer; `how` says where the request came from. */
  function tryPath(path, how) {
    input.value = path;
    input.removeAttribute('aria-invalid');
    var ticket = ++latest;
    if (how !== 'history' && history.pushState) {
      var hash = '#try=' + path;
      if (location.hash !== hash) history.pushState({ path: path }, '', hash);
    }
    button.setAttribute('aria-busy', 'true');
    output.setAttribute('aria-busy', 'true');
    setStatus('busy', 'Loading ' + path + ' …');
    var started = performance.now();
    var response;
    fetch(path, { headers: { Accept: 'application/json' } })
      .then(function (r) {
        response = r;
        return r.text();
      })
      .then(function (body) {
        if (ticket !== latest) return;
        var ms = Math.round(performance.now() - started);
        var data;
        try {
          data = JSON.parse(body);
        } catch (e) {
          output.textContent = body;
          setStatus('bad', response.status + ' ' + (response.statusText || REASONS[response.status] || '') + ': the answer is not JSON');
          return;
        }
        output.textContent = '';
        output.appendChild(renderJson(data));
        output.scrollTop = 0;
        output.scrollLeft = 0;
        raw.href = path;
        raw.hidden = false;
        var section = referenceFor(path, data);
        if (ref) {
          ref.hidden = section === null;
          if (section !== null) ref.href = '#' + section;
        }
        var reason = response.statusText || REASONS[response.status] || '';
        var what = describe(data);
        setStatus(response.ok ? 'ok' : 'bad',
          response.status + ' ' + reason + ' · ' + path + (what ? ' · ' + what : '') + ' · ' + size(new TextEncoder().encode(body).length) + ' · ' + ms + ' ms');
      })
      .catch(function (error) {
        if (ticket !== latest) return;
        output.textContent = '';
        setStatus('bad', 'Could not fetch ' + path + ': ' + (error && error.message ? error.message : String(error)));
      })
      .then(function () {
        if (ticket !== latest) return;
        button.removeAttribute('aria-busy');
        output.removeAttribute('aria-busy');
        if (how === 'link') {
          // the link that was clicked is gone with the old answer: bring the new one into view
          section.scrollIntoView({ block: 'start' });
          output.focus({ preventScroll: true });
        }
      });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var path = apiPath(input.value);
    if (path === null) {
      input.setAttribute('aria-invalid', 'true');
      setStatus('bad', 'Only URLs under /v2/ on this site can be tried here, e.g. /v2/creature/1.');
      input.focus();
      return;
    }
    tryPath(path, 'form');
  });

  // Any link marked data-try (the lists, the examples, links inside an answer) opens in the box;
  // a modified click (new tab, new window) keeps the browser's own behaviour.
  document.addEventListener('click', function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var target = event.target;
    var link = target && target.closest ? target.closest('a[data-try]') : null;
    if (!link) return;
    var path = apiPath(link.getAttribute('href'));
    if (path === null) return;
    event.preventDefault();
    tryPath(path, 'link');
  });

  function fromHash() {
    var hash = location.hash;
    if (hash.indexOf('#try=') !== 0) return null;
    var value = hash.slice(5);
    try {
      value = decodeURI(value);
    } catch (e) {
      /* keep it as it is */
    }
    return apiPath(value);
  }

  window.addEventListener('popstate', function () {
    var path = fromHash();
    if (path !== null) tryPath(path, 'history');
  });

  var initial = fromHash();
  if (initial !== null) tryPath(initial, 'history');
})();
