// requests.js: what every page's htmx requests need. The CSRF token goes
// with each; a fragment that refreshes itself (the seat map, a pending
// booking) asks only whether it changed, and not at all while the tab is
// hidden, and at once when it is shown again; a 403 or a lost connection
// is said in the flash area. Everything works without it (and without
// htmx): the pages are plain forms and links.
(function () {
  'use strict';

  var doc = document;

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
    flashError('This page is out of date or your session has ended, so nothing was done. ' +
      'Reload the page and try again.', true);
  });

  doc.addEventListener('htmx:sendError', function (evt) {
    if (evt.detail.elt && evt.detail.elt.id === 'seatmap') { return; } // the next refresh retries
    flashError('We couldn\u2019t reach boxoffice. Check your connection and try again.');
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
      button.textContent = 'Reload the page';
      button.addEventListener('click', function () { window.location.reload(); });
      div.appendChild(doc.createTextNode(' '));
      div.appendChild(button);
    }
    flash.textContent = '';
    flash.appendChild(div);
  }
})();
