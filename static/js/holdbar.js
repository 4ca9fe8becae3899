// holdbar.js: the sticky bar under the seat map: how many seats are
// ticked, which, their total, and the Hold button's words; a seat past
// MAX_SEATS is unticked with a word why. Its one piece of state is a
// one-off message, which a change of seats clears. Other parts of the page
// (seatmap.js) tell it what happened through window.boxoffice.holdbar.
(function () {
  'use strict';

  // t: the page's text in its language (requests.js).
  function t(id, args) { return window.boxoffice && window.boxoffice.t ? window.boxoffice.t(id, args) : id; }

  var doc = document;
  var SEAT = '[data-seat-id] input[name="seat"]';
  var message = ''; // a one-off line instead of the count
  var messageKind = ''; // 'taken' when a refresh took chosen seats away

  function form() { return doc.getElementById('hold-form'); }

  function formatMoney(minor, currency) {
    try {
      // INR in Indian grouping in every language (₹1,00,000), as the
      // server writes it (SPEC §19).
      return new Intl.NumberFormat(currency === 'INR' || !currency ? 'en-IN' : (doc.documentElement.lang || 'en'), {
        style: 'currency', currency: currency || 'INR',
        minimumFractionDigits: minor % 100 === 0 ? 0 : 2, maximumFractionDigits: 2
      }).format(minor / 100);
    } catch (e) {
      return (currency ? currency + ' ' : '') + (minor / 100).toFixed(2);
    }
  }

  function update() {
    var f = form();
    if (!f) { return; }
    var max = parseInt(f.dataset.maxSeats, 10) || 10;
    var inputs = f.querySelectorAll(SEAT + ':checked');
    var total = 0;
    var ids = [];
    inputs.forEach(function (i) {
      // A seat's price is its band's, unless the seat says its own.
      total += parseInt(i.closest('[data-price]').dataset.price, 10) || 0;
      ids.push(i.value);
    });
    var n = inputs.length;
    var count = f.querySelector('.holdbar-count');
    var sum = f.querySelector('.holdbar-total');
    var button = f.querySelector('.holdbar-button');
    if (count) {
      var line = n === 0 ? t('pick_up_to', { Max: max }) : t('seats_chosen', { Count: n, Seats: ids.join(', ') });
      count.textContent = message || line;
      count.classList.toggle('holdbar-guard', !!message);
    }
    if (sum) { sum.textContent = n ? formatMoney(total, f.dataset.currency) : ''; }
    if (button) {
      button.disabled = n === 0;
      button.textContent = n ? t('hold_n', { Count: n }) : t('hold_seats');
    }
  }

  window.boxoffice = window.boxoffice || {};
  window.boxoffice.holdbar = {
    update: update,
    // say shows text instead of the count until the seats change; kind
    // names it for forget.
    say: function (text, kind) { message = text; messageKind = kind || ''; update(); },
    // forget drops the message if it is of kind.
    forget: function (kind) {
      if (messageKind === kind) { message = messageKind = ''; update(); }
    }
  };

  doc.addEventListener('change', function (evt) {
    var input = evt.target;
    var f = form();
    if (!f || !input.matches || !input.matches(SEAT)) { return; }
    message = messageKind = '';
    var max = parseInt(f.dataset.maxSeats, 10) || 10;
    if (input.checked && f.querySelectorAll(SEAT + ':checked').length > max) {
      input.checked = false;
      message = t('at_most', { Max: max });
    }
    update();
  });

  if (doc.readyState === 'loading') {
    doc.addEventListener('DOMContentLoaded', update);
  } else {
    update();
  }
})();
