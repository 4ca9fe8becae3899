// seatmap.js: the seat map page's live map. Its state is the map's clock
// (the offset of this device's clock from the server's when the map was
// drawn) and, across a refresh, what the viewer had chosen:
//   - a refresh (every few seconds, htmx) shows others' changes but keeps
//     the viewer's choice and scroll, dropping seats taken meanwhile, and
//     says so in the hold bar;
//   - a hold that lost seats (409) answers with their ids only, into
//     #seatmap-answer: they are marked taken on the map and unticked;
//   - the seat rule runs here too: a held seat turns free when its lock
//     lapses, by the server's clock, not the device's (a phone may be
//     minutes off);
//   - a wide hall opens centred, or on the viewer's own seats.
// Seats enabled or disabled in place are announced with
// boxoffice:seats-changed, for seatgrid.js.
(function () {
  'use strict';

  // t: the page's text in its language (requests.js).
  function t(id, args) { return window.boxoffice && window.boxoffice.t ? window.boxoffice.t(id, args) : id; }

  var doc = document;
  var SEAT = '[data-seat-id] input[name="seat"]';
  var offset = 0; // the server's clock minus this device's, in ms, as the map was drawn
  var kept = null; // what the viewer had chosen when a refresh arrived

  function holdbar() { return (window.boxoffice && window.boxoffice.holdbar) || { update: function () {}, say: function () {}, forget: function () {} }; }

  function readClock(map) {
    var server = map ? Date.parse(map.dataset.serverNow) : NaN;
    if (!isNaN(server)) { offset = server - Date.now(); }
  }

  function seatsChanged() { doc.dispatchEvent(new CustomEvent('boxoffice:seats-changed')); }

  function checked(root) {
    var out = [];
    root.querySelectorAll(SEAT + ':checked').forEach(function (i) { out.push(i.value); });
    return out;
  }

  function rename(input, status) {
    var name = input.getAttribute('aria-label');
    if (name) { input.setAttribute('aria-label', name.replace(/[^,]*$/, ' ' + status)); }
  }

  function applySeatRule() {
    var now = Date.now() + offset;
    var changed = false;
    doc.querySelectorAll('#seatmap .seat[data-expires-at]').forEach(function (seat) {
      var at = Date.parse(seat.dataset.expiresAt);
      var state = seat.dataset.state;
      if (isNaN(at) || at > now || (state !== 'held' && state !== 'mine')) { return; }
      seat.dataset.state = 'available';
      seat.removeAttribute('data-expires-at');
      changed = true;
      var input = seat.querySelector('input');
      if (input) {
        input.disabled = false;
        rename(input, t('status_available'));
      }
    });
    if (changed) { seatsChanged(); }
  }

  doc.addEventListener('htmx:beforeRequest', function (evt) {
    if (evt.detail.elt && evt.detail.elt.id === 'hold-form') {
      ['flash', 'seatmap-answer'].forEach(function (id) {
        var el = doc.getElementById(id);
        if (el) { el.textContent = ''; }
      });
    }
  });

  doc.addEventListener('htmx:beforeSwap', function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== 'seatmap') { return; }
    var verb = evt.detail.requestConfig && evt.detail.requestConfig.verb;
    var scroller = target.querySelector('.seatmap-scroll');
    kept = { refresh: verb === 'get', chosen: checked(target), scrollLeft: scroller ? scroller.scrollLeft : 0 };
  });

  doc.addEventListener('htmx:afterSwap', function (evt) {
    var map = evt.target;
    if (!map || map.id !== 'seatmap' || !kept) { return; }
    readClock(map);
    var scroller = map.querySelector('.seatmap-scroll');
    if (scroller) { scroller.scrollLeft = kept.scrollLeft; }
    if (kept.refresh) {
      var lost = [];
      map.querySelectorAll(SEAT).forEach(function (input) {
        var want = kept.chosen.indexOf(input.value) >= 0;
        if (want && input.disabled) { lost.push(input.value); }
        input.checked = want && !input.disabled;
      });
      if (lost.length) {
        holdbar().say(t('taken', { Count: lost.length, Seats: lost.join(', ') }), 'taken');
      } else {
        holdbar().forget('taken'); // a later refresh: old news
      }
    }
    kept = null;
    applySeatRule();
    holdbar().update();
    // A hold refused for a single gap (422) ticks the offered seats
    // again: its message (role=alert) is brought into view.
    var gap = map.querySelector('[data-gap-seat]');
    if (gap) { gap.scrollIntoView({ block: 'center' }); }
  });

  doc.addEventListener('htmx:afterSwap', function (evt) {
    var answer = evt.target;
    if (!answer || answer.id !== 'seatmap-answer') { return; }
    answer.querySelectorAll('[data-seat-id][data-conflict]').forEach(function (lost) {
      var seat = doc.querySelector('#seatmap .seat[data-seat-id="' + lost.dataset.seatId + '"]');
      lost.remove(); // the map has the seat; the answer only named it
      if (!seat) { return; }
      seat.dataset.state = 'held';
      seat.dataset.conflict = 'true';
      seat.removeAttribute('data-expires-at');
      var input = seat.querySelector('input');
      if (input) {
        input.checked = false;
        input.disabled = true;
        rename(input, t('status_taken'));
      }
    });
    holdbar().update();
    seatsChanged();
  });

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
    readClock(doc.getElementById('seatmap'));
    centreMap();
    applySeatRule();
    setInterval(applySeatRule, 1000);
  }

  if (doc.readyState === 'loading') {
    doc.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
