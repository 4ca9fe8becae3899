// boxoffice: the little JavaScript the pages use. Everything works without
// it; this adds the running total, the client-side seat rule, the live seat
// map refresh that keeps the selection, and the checkout countdown. It is a
// file of ours because the Content-Security-Policy allows no inline script.
(function () {
  'use strict';

  var doc = document;

  function csrfToken() {
    var m = doc.querySelector('meta[name="csrf-token"]');
    return m ? m.getAttribute('content') : '';
  }

  function formatMoney(minor, currency) {
    try {
      return new Intl.NumberFormat('en-US', {
        style: 'currency', currency: currency || 'INR',
        minimumFractionDigits: minor % 100 === 0 ? 0 : 2, maximumFractionDigits: 2
      }).format(minor / 100);
    } catch (e) {
      return (currency ? currency + ' ' : '') + (minor / 100).toFixed(2);
    }
  }

  function pad(n) { return n < 10 ? '0' + n : String(n); }

  // ---- the server's clock: the device's may be minutes off ----

  // Held seats free up, and holds end, by the server's clock. Pages and
  // fragments that show times carry data-server-now (the server's clock as
  // they were drawn); each new one resets the offset of this device's clock
  // from the server's. A phone running fast then neither frees held seats
  // early (a click that only earns a 409) nor ends its countdown and
  // disables Pay while the server would still take the payment.
  var clockOffset = 0; // server time minus device time, in ms

  function syncClock() {
    doc.querySelectorAll('[data-server-now]').forEach(function (el) {
      if (el.boxofficeClockRead) { return; } // read when it arrived; it is older now
      el.boxofficeClockRead = true;
      var t = Date.parse(el.dataset.serverNow);
      if (!isNaN(t)) { clockOffset = t - Date.now(); }
    });
  }

  function serverNow() { return Date.now() + clockOffset; }

  // ---- htmx: CSRF header, conditional refresh, keeping the selection ----

  doc.addEventListener('htmx:configRequest', function (evt) {
    var d = evt.detail;
    d.headers['X-CSRF-Token'] = csrfToken();
    var elt = d.elt;
    if (d.verb === 'get' && elt && elt.dataset && elt.dataset.etag) {
      // A polling fragment (seat map, pending booking) asks for itself only
      // if it changed: the server answers 304, which htmx is configured
      // (meta htmx-config) not to swap.
      d.headers['If-None-Match'] = elt.dataset.etag;
    }
  });

  var kept = null; // what the viewer had chosen when a refresh arrived

  doc.addEventListener('htmx:beforeSwap', function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== 'seatmap') { return; }
    var verb = evt.detail.requestConfig && evt.detail.requestConfig.verb;
    var scroller = target.querySelector('.seatmap-scroll');
    kept = {
      refresh: verb === 'get',
      chosen: checkedSeats(target),
      scrollLeft: scroller ? scroller.scrollLeft : 0
    };
  });

  // First of the afterSwap listeners, so the others see the new offset.
  doc.addEventListener('htmx:afterSwap', syncClock);

  doc.addEventListener('htmx:afterSwap', function (evt) {
    var map = evt.target;
    if (!map || map.id !== 'seatmap' || !kept) { return; }
    var scroller = map.querySelector('.seatmap-scroll');
    if (scroller) { scroller.scrollLeft = kept.scrollLeft; }
    if (kept.refresh) {
      // A refresh shows others' changes but must not undo the viewer's
      // choice: re-apply it, dropping seats that were taken meanwhile.
      var lost = [];
      map.querySelectorAll('[data-seat-id] input[name="seat"]').forEach(function (input) {
        var want = kept.chosen.indexOf(input.value) >= 0;
        if (want && input.disabled) { lost.push(input.value); }
        input.checked = want && !input.disabled;
      });
      if (lost.length) {
        say((lost.length === 1 ? 'Seat ' + lost[0] + ' was' : 'Seats ' + lost.join(', ') + ' were') +
          ' just taken by someone else.', 'taken');
      } else if (messageKind === 'taken') {
        message = messageKind = ''; // a later refresh: old news
      }
    }
    kept = null;
    applySeatRule();
    updateSummary();
  });

  // A hold that lost seats (409) answers with their ids only, into
  // #seatmap-answer: mark them on the map as taken, untick them, and drop
  // the answer's copies of their ids; the next refresh brings the rest.
  doc.addEventListener('htmx:afterSwap', function (evt) {
    var answer = evt.target;
    if (!answer || answer.id !== 'seatmap-answer') { return; }
    answer.querySelectorAll('[data-seat-id][data-conflict]').forEach(function (lost) {
      var seat = doc.querySelector('#seatmap .seat[data-seat-id="' + lost.dataset.seatId + '"]');
      lost.remove();
      if (!seat) { return; }
      seat.dataset.state = 'held';
      seat.dataset.conflict = 'true';
      seat.removeAttribute('data-expires-at');
      var input = seat.querySelector('input');
      if (input) {
        input.checked = false;
        input.disabled = true;
        var name = input.getAttribute('aria-label');
        if (name) { input.setAttribute('aria-label', name.replace(/[^,]*$/, ' just taken by someone else')); }
      }
    });
    updateSummary();
    seatsChanged();
  });

  // seatsChanged tells seatgrid.js that seats were enabled or disabled here,
  // so that the map keeps a tab stop on a seat that can be chosen.
  function seatsChanged() { doc.dispatchEvent(new CustomEvent('boxoffice:seats-changed')); }

  // isPoll: a request of a fragment that refreshes itself (seat map,
  // pending booking).
  function isPoll(detail) {
    var elt = detail.elt;
    var verb = detail.requestConfig && detail.requestConfig.verb;
    return !!elt && (elt.id === 'seatmap' || elt.id === 'booking') && (!verb || verb === 'get');
  }

  doc.addEventListener('htmx:beforeRequest', function (evt) {
    if (isPoll(evt.detail) && doc.visibilityState === 'hidden') {
      // Nobody is looking: skip this refresh; showing the tab again
      // refreshes at once (below).
      evt.preventDefault();
      return;
    }
    if (evt.detail.elt && evt.detail.elt.id === 'hold-form') {
      ['flash', 'seatmap-answer'].forEach(function (id) {
        var el = doc.getElementById(id);
        if (el) { el.textContent = ''; }
      });
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

  // ---- the hold form: running total, count, max-seats guard ----

  function holdForm() { return doc.getElementById('hold-form'); }

  function checkedSeats(root) {
    var out = [];
    (root || doc).querySelectorAll('[data-seat-id] input[name="seat"]:checked').forEach(function (i) { out.push(i.value); });
    return out;
  }

  var message = ''; // a one-off line for the hold bar
  var messageKind = ''; // 'taken' when a refresh took chosen seats away

  function say(text, kind) {
    message = text;
    messageKind = kind || '';
    updateSummary();
  }

  function updateSummary() {
    var form = holdForm();
    if (!form) { return; }
    var max = parseInt(form.dataset.maxSeats, 10) || 10;
    var inputs = form.querySelectorAll('[data-seat-id] input[name="seat"]:checked');
    var total = 0;
    // A seat's price is its band's, unless the seat says its own.
    inputs.forEach(function (i) { total += parseInt(i.closest('[data-price]').dataset.price, 10) || 0; });
    var n = inputs.length;
    var count = form.querySelector('.holdbar-count');
    var sum = form.querySelector('.holdbar-total');
    var button = form.querySelector('.holdbar-button');
    if (count) {
      var line = n === 0 ? 'Pick up to ' + max + ' seats' :
        n + (n === 1 ? ' seat: ' : ' seats: ') + checkedSeats(form).join(', ');
      count.textContent = message || line;
      count.classList.toggle('holdbar-guard', !!message);
    }
    if (sum) { sum.textContent = n ? formatMoney(total, form.dataset.currency) : ''; }
    if (button) {
      button.disabled = n === 0;
      button.textContent = n ? 'Hold ' + n + (n === 1 ? ' seat' : ' seats') : 'Hold seats';
    }
  }

  doc.addEventListener('change', function (evt) {
    var input = evt.target;
    var form = holdForm();
    if (!form || !input.matches || !input.matches('[data-seat-id] input[name="seat"]')) { return; }
    message = messageKind = '';
    var max = parseInt(form.dataset.maxSeats, 10) || 10;
    if (input.checked && checkedSeats(form).length > max) {
      input.checked = false;
      message = 'You can hold at most ' + max + ' seats at a time.';
    }
    updateSummary();
  });

  // ---- the seat rule, in the browser: a held seat frees itself on time ----

  function applySeatRule() {
    var now = serverNow();
    var changed = false;
    doc.querySelectorAll('.seat[data-expires-at]').forEach(function (seat) {
      var at = Date.parse(seat.dataset.expiresAt);
      if (isNaN(at) || at > now) { return; }
      var state = seat.dataset.state;
      if (state !== 'held' && state !== 'mine') { return; }
      seat.dataset.state = 'available';
      seat.removeAttribute('data-expires-at');
      changed = true;
      var input = seat.querySelector('input');
      if (input) { input.disabled = false; }
      if (input) {
        var name = input.getAttribute('aria-label');
        if (name) { input.setAttribute('aria-label', name.replace(/[^,]*$/, ' available')); }
      }
    });
    if (changed) { seatsChanged(); }
  }

  // ---- checkout countdown ----

  function tickCountdown() {
    doc.querySelectorAll('.countdown[data-expires-at]').forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.expiresAt) - serverNow()) / 1000));
      if (isNaN(left)) { return; }
      if (left > 0) {
        var t = el.querySelector('.countdown-left');
        if (t) { t.textContent = Math.floor(left / 60) + ':' + pad(left % 60); }
        return;
      }
      el.removeAttribute('data-expires-at');
      el.classList.add('countdown-expired');
      el.setAttribute('role', 'alert');
      el.textContent = 'Your hold has expired, so these seats may go to someone else. ';
      if (el.dataset.seatmapUrl) {
        var a = doc.createElement('a');
        a.href = el.dataset.seatmapUrl;
        a.textContent = 'Choose seats again';
        el.appendChild(a);
      }
      doc.querySelectorAll('.pay-form button').forEach(function (b) { b.disabled = true; });
    });
  }

  function everySecond() {
    applySeatRule();
    tickCountdown();
  }

  // A wide hall opens centred, as seen from the middle of the stalls, or on
  // the viewer's own seats when they have some.
  function centreMap() {
    var scroller = doc.querySelector('#seatmap .seatmap-scroll');
    if (!scroller || scroller.scrollWidth <= scroller.clientWidth) { return; }
    var mine = scroller.querySelector('.seat input:checked');
    if (mine) {
      var box = mine.parentNode;
      scroller.scrollLeft = box.offsetLeft - scroller.clientWidth / 2 + box.offsetWidth / 2;
    } else {
      scroller.scrollLeft = (scroller.scrollWidth - scroller.clientWidth) / 2;
    }
  }

  function start() {
    syncClock();
    centreMap();
    updateSummary();
    everySecond();
    setInterval(everySecond, 1000);
  }

  if (doc.readyState === 'loading') {
    doc.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
