// countdown.js: the checkout's countdown, by the server's clock (the
// device's may be minutes off: the offset is read from the countdown's
// data-server-now as the page arrives). At zero it says the hold has
// ended, links back to the seats and disables Pay.
(function () {
  'use strict';

  // t: the page's text in its language (requests.js).
  function t(id, args) { return window.boxoffice && window.boxoffice.t ? window.boxoffice.t(id, args) : id; }

  var doc = document;

  function pad(n) { return n < 10 ? '0' + n : String(n); }

  function start(el) {
    var offset = Date.parse(el.dataset.serverNow) - Date.now();
    if (isNaN(offset)) { offset = 0; }
    var expiresAt = Date.parse(el.dataset.expiresAt);
    if (isNaN(expiresAt)) { return; }

    function tick() {
      var left = Math.max(0, Math.round((expiresAt - (Date.now() + offset)) / 1000));
      if (left > 0) {
        var shown = el.querySelector('.countdown-left');
        if (shown) { shown.textContent = Math.floor(left / 60) + ':' + pad(left % 60); }
        return;
      }
      clearInterval(timer);
      el.removeAttribute('data-expires-at');
      el.classList.add('countdown-expired');
      el.setAttribute('role', 'alert');
      el.textContent = t('hold_expired') + ' ';
      if (el.dataset.seatmapUrl) {
        var a = doc.createElement('a');
        a.href = el.dataset.seatmapUrl;
        a.textContent = t('choose_again');
        el.appendChild(a);
      }
      doc.querySelectorAll('.pay-form button').forEach(function (b) { b.disabled = true; });
    }
    var timer = setInterval(tick, 1000);
    tick();
  }

  doc.querySelectorAll('.countdown[data-expires-at]').forEach(start);
})();
