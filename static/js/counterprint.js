// counterprint.js: right after a sale at the box office, opens this page's
// print dialog once the page has loaded, once ([data-print-auto]). The
// page prints its tickets itself: in print media it shows the print page's
// tickets, one per seat, and nothing else (print.css). No window and no
// frame: no click opened this page, so a browser would block a window as a
// pop-up, and no page may be framed. After the print dialog, the Print
// link has the focus, so that Enter prints again: it goes to the print
// page with ?print=1, which prints as it opens (print.js). Without
// JavaScript, the link is there to press.
(function () {
  "use strict";
  function start() {
    var link = document.querySelector("[data-print-auto]");
    if (!link) {
      return;
    }
    function print() {
      window.print();
      link.focus();
    }
    // After load, so that the stylesheets are in and the tickets print as
    // they should.
    if (document.readyState === "complete") {
      print();
    } else {
      window.addEventListener("load", print, { once: true });
    }
  }
  start(); // deferred: the page is parsed
})();
