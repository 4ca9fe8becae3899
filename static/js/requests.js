// requests.js: what every page's htmx requests need. The CSRF token goes
// with each; a fragment that refreshes itself (the seat map, a pending
// booking) asks only whether it changed, and not at all while the tab is
// hidden, and at once when it is shown again; a 403 or a lost connection
// is said in the flash area. Everything works without it (and without
// htmx): the pages are plain forms and links.
(function () {
  'use strict';

  var doc = document;

  // t is the page's text id in its language (SPEC §19), from the layout's
  // <meta name="boxoffice-messages">, each {{.Name}} filled from args; a
  // count (args.Count) picks the plural form by the language's rules.
  var messages = null;
  function t(id, args) {
    if (!messages) {
      var m = doc.querySelector('meta[name="boxoffice-messages"]');
      try { messages = JSON.parse(m ? m.getAttribute('content') : '{}') || {}; } catch (e) { messages = {}; }
    }
    var forms = messages[id];
    if (!forms) { return id; }
    var text = forms.other;
    if (args && typeof args.Count === 'number' && forms.one) {
      var one = args.Count === 1;
      try { one = new Intl.PluralRules(doc.documentElement.lang || 'en').select(args.Count) === 'one'; } catch (e) { /* older browser: 1 is one */ }
      if (one) { text = forms.one; }
    }
    return text.replace(/\{\{\s*\.(\w+)\s*\}\}/g, function (_, name) {
      return args && Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : '';
    });
  }
  window.boxoffice = window.boxoffice || {};
  window.boxoffice.t = t;

  function csrfToken() {
    var m = doc.querySelector('meta[name="csrf-token"]');
    return m ? m.getAttribute('content') : '';
  }

  // isPoll: a request of a fragment that refreshes itself.
  function isPoll(detail) {
    var elt = detail.elt;
    var verb = detail.requestConfig && detail.requestConfig.verb;
    return !!elt && (elt.id === 'seatmap' || elt.id === 'booking') && (!verb || verb === 'get');
  }

  doc.addEventListener('htmx:configRequest', function (evt) {
    var d = evt.detail;
    d.headers['X-CSRF-Token'] = csrfToken();
    var elt = d.elt;
    if (d.verb === 'get' && elt && elt.dataset && elt.dataset.etag) {
      // The server answers 304 when nothing changed, which htmx is
      // configured (meta htmx-config) not to swap.
      d.headers['If-None-Match'] = elt.dataset.etag;
    }
  });

  doc.addEventListener('htmx:beforeRequest', function (evt) {
    if (isPoll(evt.detail) && doc.visibilityState === 'hidden') {
      evt.preventDefault(); // nobody is looking; showing the tab refreshes
    }
  });

  function refreshMap() {
    if (!window.htmx) { return; }
    var map = doc.getElementById('seatmap');
    if (map && map.getAttribute('hx-get')) { window.htmx.trigger(map, 'seatmap-refresh'); }
  }

  doc.addEventListener('visibilitychange', function () {
    if (doc.visibilityState === 'visible') { refreshMap(); }
  });

  // The browser's Back after Hold may bring the map back from the
  // back/forward cache as it was left: the seats just held still shown
  // free. Refresh it at once (a refresh already sent, on visibilitychange,
  // makes this one a no-op).
  window.addEventListener('pageshow', function (evt) {
    if (evt.persisted) { refreshMap(); }
  });

  // A 403 means the page's CSRF token is no longer the session's (the
  // session ended, or another tab started a new one): every retry would fail
  // the same way until the page is reloaded, so say that, with a button.
  doc.addEventListener('htmx:beforeSwap', function (evt) {
    if (!evt.detail.xhr || evt.detail.xhr.status !== 403) { return; }
    evt.detail.shouldSwap = false;
    evt.detail.isError = false;
    flashError(t('out_of_date'), true);
  });

  doc.addEventListener('htmx:sendError', function (evt) {
    if (evt.detail.elt && evt.detail.elt.id === 'seatmap') { return; } // the next refresh retries
    flashError(t('unreachable'));
  });

  function flashError(text, reload) {
    var flash = doc.getElementById('flash');
    if (!flash) { return; }
    var div = doc.createElement('div');
    div.className = 'notice notice-error';
    div.setAttribute('role', 'alert');
    div.textContent = text;
    if (reload) {
      var button = doc.createElement('button');
      button.type = 'button';
      button.className = 'btn btn-primary flash-reload';
      button.textContent = t('reload');
      button.addEventListener('click', function () { window.location.reload(); });
      div.appendChild(doc.createTextNode(' '));
      div.appendChild(button);
    }
    flash.textContent = '';
    flash.appendChild(div);
  }
})();
