// counterprint.js: right after a sale at the box office, opens the
// booking's printable tickets ([data-print-auto]'s data-print-url) in a
// window of this origin and its print dialog there. The print page cannot
// be framed (frame-ancestors 'none'), hence a window; where the browser
// blocks it, the Print link gets the focus, so that Enter prints. Without
// JavaScript the link is there to press.
(function () {
  "use strict";
  function start() {
    var link = document.querySelector("[data-print-auto][data-print-url]");
    if (!link) {
      return;
    }
    var w = window.open(link.getAttribute("data-print-url"), "_blank");
    if (!w) {
      link.focus();
      return;
    }
    w.addEventListener("load", function () {
      w.focus();
      w.print();
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
