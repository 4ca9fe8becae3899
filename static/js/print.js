// print.js: the printable tickets (SPEC §16). Without JavaScript the page
// says to use the browser's Print command; with it, the Print button takes
// its place, and a page marked data-autoprint (?print=1: the counter's
// answer to Sell links so) opens the print dialog once it has loaded.
(function () {
  'use strict';

  function start() {
    var page = document.querySelector('[data-print]');
    if (!page) { return; }
    var button = page.querySelector('[data-print-button]');
    var hint = page.querySelector('[data-print-hint]');
    if (button) {
      button.hidden = false;
      button.addEventListener('click', function () { window.print(); });
    }
    if (hint) { hint.hidden = true; }
    if (!page.hasAttribute('data-autoprint')) { return; }
    // After load, so that the stylesheets are in and the tickets print as
    // they should.
    if (document.readyState === 'complete') {
      window.print();
    } else {
      window.addEventListener('load', function () { window.print(); }, { once: true });
    }
  }

  start(); // deferred: the page is parsed
})();
