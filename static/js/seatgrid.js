// seatgrid.js: the seat map as one ARIA grid (SPEC §13, WCAG 2.1.1). The
// map is a grid of rows of cells, each holding a seat's checkbox; without
// JavaScript every checkbox is a tab stop. With this, the grid is one tab
// stop (a roving tabindex): the arrow keys move between the seats that can
// be chosen, Home and End go to a row's first and last (with Ctrl, the
// map's), Space or Enter ticks the seat. A live refresh replaces the map;
// the seat that had the keyboard keeps it.
//
// Its one piece of state is the seat holding the grid's tab stop, read from
// the DOM (the checkbox with tabindex 0) whenever it is needed.
(function () {
  'use strict';

  var doc = document;
  var SEAT = 'input[name="seat"]';

  function grid() { return doc.querySelector('#seatmap [role="grid"]'); }

  function free(list) {
    return Array.prototype.filter.call(list, function (i) { return !i.disabled; });
  }

  function rowOf(input) { return input.closest('[role="row"]'); }

  // column is the seat's place in its row, gaps counted, so that columns
  // line up from row to row as they are drawn.
  function column(input) {
    var cell = input.closest('[role="gridcell"]');
    return Array.prototype.indexOf.call(cell.parentNode.children, cell);
  }

  // setStop makes input the grid's one tab stop.
  function setStop(g, input) {
    g.querySelectorAll(SEAT).forEach(function (i) { i.tabIndex = i === input ? 0 : -1; });
  }

  // stop picks the tab stop: the seat with the given value when it can
  // still be chosen, else the first ticked seat, else the first free one.
  function stop(g, value) {
    var seats = free(g.querySelectorAll(SEAT));
    var want = null;
    seats.forEach(function (i) { if (!want && value && i.value === value) { want = i; } });
    seats.forEach(function (i) { if (!want && i.checked) { want = i; } });
    return want || seats[0] || null;
  }

  function init(value, focus) {
    var g = grid();
    if (!g) { return; }
    var keys = doc.getElementById('seatmap-keys');
    if (keys) {
      keys.hidden = false;
      g.setAttribute('aria-describedby', 'seatmap-keys'); // only where the keys work
    }
    var s = stop(g, value);
    setStop(g, s);
    if (s && focus) { s.focus({ preventScroll: true }); }
  }

  // target is where key moves the keyboard from input, or null.
  function target(g, input, key, ctrl) {
    var rows = Array.prototype.filter.call(g.querySelectorAll('[role="row"]'), function (r) {
      return free(r.querySelectorAll(SEAT)).length > 0;
    });
    var row = rowOf(input);
    var inRow = free(row.querySelectorAll(SEAT));
    var at = inRow.indexOf(input);
    switch (key) {
      case 'ArrowLeft': return inRow[at - 1] || null;
      case 'ArrowRight': return inRow[at + 1] || null;
      case 'Home': return ctrl ? free(rows[0].querySelectorAll(SEAT))[0] : inRow[0];
      case 'End':
        if (ctrl) {
          var last = free(rows[rows.length - 1].querySelectorAll(SEAT));
          return last[last.length - 1];
        }
        return inRow[inRow.length - 1];
      case 'ArrowUp':
      case 'ArrowDown':
        var next = rows[rows.indexOf(row) + (key === 'ArrowUp' ? -1 : 1)];
        return next ? nearest(free(next.querySelectorAll(SEAT)), column(input)) : null;
    }
    return null;
  }

  // nearest is the seat of seats closest to column col, the left one on a tie.
  function nearest(seats, col) {
    var best = null, bestD = Infinity;
    seats.forEach(function (i) {
      var d = Math.abs(column(i) - col);
      if (d < bestD) { best = i; bestD = d; }
    });
    return best;
  }

  doc.addEventListener('keydown', function (evt) {
    var input = evt.target;
    var g = grid();
    if (!g || !input.matches || !input.matches(SEAT) || !g.contains(input)) { return; }
    if (evt.key === 'Enter') {
      evt.preventDefault(); // Enter ticks the seat here; Hold is the form's button
      input.click();
      return;
    }
    if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].indexOf(evt.key) < 0) { return; }
    // Alt+arrows are the browser's Back and Forward; Shift and Ctrl with an
    // arrow are not the grid's either.
    if (evt.altKey || evt.shiftKey || ((evt.ctrlKey || evt.metaKey) && evt.key !== 'Home' && evt.key !== 'End')) { return; }
    evt.preventDefault(); // no scrolling the page or the map instead
    var to = target(g, input, evt.key, evt.ctrlKey || evt.metaKey);
    if (!to || to === input) { return; }
    setStop(g, to);
    to.focus();
  });

  // Enter on a seat must not also submit the form, which browsers do on
  // the keypress that follows the keydown.
  doc.addEventListener('keypress', function (evt) {
    var g = grid();
    if (evt.key === 'Enter' && g && evt.target.matches && evt.target.matches(SEAT) && g.contains(evt.target)) {
      evt.preventDefault();
    }
  });

  // A seat chosen with the pointer takes the tab stop, so Tab comes back to it.
  doc.addEventListener('focusin', function (evt) {
    var g = grid();
    if (g && evt.target.matches && evt.target.matches(SEAT) && g.contains(evt.target)) { setStop(g, evt.target); }
  });

  // The words of a seat, as a tooltip for the pointer too (written once, in
  // its checkbox's name, rather than twice in the page).
  doc.addEventListener('mouseover', function (evt) {
    var input = evt.target;
    if (input.matches && input.matches('#seatmap ' + SEAT)) {
      input.title = input.getAttribute('aria-label') || ''; // its state may have changed since
    }
  });

  // Seats were enabled or disabled in place (seatmap.js: a conflict, a lapsed
  // lock): keep the tab stop on a seat that can be chosen, and the keyboard
  // on it if the one it was on was just disabled.
  doc.addEventListener('boxoffice:seats-changed', function () {
    var g = grid();
    if (!g) { return; }
    var s = g.querySelector(SEAT + '[tabindex="0"]');
    if (s && !s.disabled) { return; }
    var lost = !!s && (doc.activeElement === s || doc.activeElement === doc.body);
    init(s ? s.value : '', lost);
  });

  var kept = null; // the tab stop, and whether it had the keyboard, across a swap

  doc.addEventListener('htmx:beforeSwap', function (evt) {
    var g = grid();
    if (!g || evt.detail.target !== g.closest('#seatmap')) { return; }
    var s = g.querySelector(SEAT + '[tabindex="0"]');
    kept = { value: s ? s.value : '', focused: !!s && doc.activeElement === s };
  });

  doc.addEventListener('htmx:afterSwap', function (evt) {
    if (!evt.target || evt.target.id !== 'seatmap') { return; }
    var k = kept || { value: '', focused: false };
    kept = null;
    init(k.value, k.focused);
  });

  if (doc.readyState === 'loading') {
    doc.addEventListener('DOMContentLoaded', function () { init('', false); });
  } else {
    init('', false);
  }
})();
