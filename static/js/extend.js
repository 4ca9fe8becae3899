// extend.js: "More time" on the checkout (WCAG 2.2.1, SPEC §13). The form
// is always in the page, so it works without JavaScript; with it, the
// button stays out of the way until a minute before the hold ends, when a
// warning is announced and the button offered. One part, one state: the
// time left by the server's clock.
(function () {
  'use strict';

  // t: the page's text in its language (requests.js).
  function t(id, args) { return window.boxoffice && window.boxoffice.t ? window.boxoffice.t(id, args) : id; }

  var WARN_BEFORE = 60 * 1000;

  function start(box) {
    var expiresAt = Date.parse(box.dataset.expiresAt);
    // The device's clock may be off: keep its offset from the server's.
    var offset = Date.parse(box.dataset.serverNow) - Date.now();
    var warning = box.querySelector('[data-more-time-warning]');
    var form = box.querySelector('form');
    var warned = false;

    function left() { return expiresAt - (Date.now() + offset); }

    function render() {
      var ms = left();
      if (ms <= 0) {
        box.hidden = true;
        return;
      }
      if (ms > WARN_BEFORE) {
        box.hidden = true;
        setTimeout(render, ms - WARN_BEFORE);
        return;
      }
      box.hidden = false;
      if (!warned) {
        warned = true;
        warning.textContent = form
          ? t('less_than_minute_more')
          : t('less_than_minute');
      }
      setTimeout(render, ms);
    }
    render();
  }

  document.querySelectorAll('[data-more-time][data-expires-at]').forEach(start);
})();
