// counterprint.js: right after a sale at the box office, prints the
// booking's tickets ([data-print-auto]'s data-print-url) through a hidden
// frame of this origin: the print page loads in it and, once loaded, its
// print dialog opens, once. A frame, not a window: no click opened this
// page, so every browser would block a window as a pop-up. The print page
// lets this site frame it (frame-ancestors 'self'). The frame is out of
// sight and of the keyboard's and screen readers' way, but laid out (not
// display: none), so that it prints as it should. After the print dialog,
// the Print link has the focus, so that Enter prints again: it goes to the
// print page with ?print=1, which prints as it opens (print.js). Without
// JavaScript, the link is there to press.
(function () {
  "use strict";
  function start() {
    var link = document.querySelector("[data-print-auto][data-print-url]");
    if (!link) {
      return;
    }
    var frame = document.createElement("iframe");
    frame.className = "counter-print-frame";
    frame.title = link.textContent.trim();
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    var printed = false;
    frame.addEventListener("load", function () {
      // The first load of the print page only: not about:blank, nor a
      // page the frame was sent to after.
      if (printed) {
        return;
      }
      try {
        var w = frame.contentWindow;
        if (w.location.href === "about:blank") {
          return;
        }
        printed = true;
        w.focus();
        w.print();
      } catch (e) {
        // The frame was refused (not this origin's, or framing denied):
        // nothing printed; the Print link is there to press.
        printed = true;
      }
      // Out of the hidden frame: on the Print link, to print (again).
      link.focus();
    });
    frame.src = link.getAttribute("data-print-url");
    document.body.appendChild(frame);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
