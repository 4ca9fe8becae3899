// boxoffice: the door's camera. The door works by typing the ticket code;
// where the browser has a camera, "Scan with camera" reads the ticket's QR
// code instead, puts the code in the field and submits the same form, so
// the server's answer is the same either way. QR codes are read by the
// browser's own BarcodeDetector where it has one, otherwise by jsQR
// (static/vendor, loaded before this file) on a small copy of the frame.
// A file of ours because the Content-Security-Policy allows no inline script.
(function () {
  'use strict';

  // t: the page's text in its language (requests.js).
  function t(id, args) { return window.boxoffice && window.boxoffice.t ? window.boxoffice.t(id, args) : id; }

  var doc = document;
  var door = doc.querySelector('[data-door]');
  if (!door) { return; }

  // ---- the parts of the page ----

  var ui = {
    form: door.querySelector('[data-door-form]'),
    code: door.querySelector('[data-door-code]'),
    scan: door.querySelector('[data-door-scan]'),
    camera: door.querySelector('[data-door-camera]'),
    video: door.querySelector('[data-door-video]'),
    status: door.querySelector('[data-door-camera-status]'),
    stop: door.querySelector('[data-door-stop]')
  };
  if (!ui.form || !ui.code || !ui.scan || !ui.camera || !ui.video || !ui.status || !ui.stop) { return; }

  var canFilm = !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
  if (!canFilm) { return; } // the scan button stays hidden: typing is the door

  var FRAME_MS = 125;   // about 8 frames a second: enough to read a held-up ticket
  var SCAN_WIDTH = 480; // px: jsQR reads frames scaled down to this, so a phone stays cool

  var AIM = ui.status.textContent; // the page's "Point the camera at…"
  var STOP = ui.stop.textContent;

  // ---- the camera's state ----

  // state is 'off' (the box hidden), 'starting' (asking for the camera),
  // 'scanning' (reading frames) or 'failed' (the box shows why, and typing
  // goes on). run counts the starts, so that an answer from the camera or
  // the reader for a run already stopped is dropped.
  var state = 'off';
  var run = 0;
  var stream = null; // the camera's MediaStream while it is on
  var timer = 0;     // the next frame's setTimeout
  var read = null;   // read(video) -> Promise of the text of the QR code in view, or ''

  function render(text) {
    var on = state === 'starting' || state === 'scanning';
    ui.camera.hidden = state === 'off';
    ui.video.hidden = state === 'failed';
    ui.scan.hidden = on;
    ui.stop.textContent = state === 'failed' ? t('camera_close') : STOP;
    ui.status.textContent = text || AIM;
  }

  // ---- the QR reader ----

  function nativeReader() {
    if (!('BarcodeDetector' in window)) { return Promise.resolve(null); }
    var formats = window.BarcodeDetector.getSupportedFormats ?
      window.BarcodeDetector.getSupportedFormats() : Promise.resolve(['qr_code']);
    return formats.then(function (list) {
      if (list.indexOf('qr_code') < 0) { return null; }
      var detector = new window.BarcodeDetector({ formats: ['qr_code'] });
      return function (video) {
        return detector.detect(video).then(function (codes) {
          return codes.length ? codes[0].rawValue : '';
        });
      };
    }).catch(function () { return null; });
  }

  function jsQRReader() {
    if (typeof window.jsQR !== 'function') { return null; }
    var canvas = doc.createElement('canvas');
    // Read back every frame: asking for that up front keeps the canvas in
    // memory the CPU reads fast (and Chrome from warning about it).
    var ctx = canvas.getContext('2d', { willReadFrequently: true });
    return function (video) {
      var w = video.videoWidth, h = video.videoHeight;
      if (!w || !h) { return Promise.resolve(''); }
      var scale = Math.min(1, SCAN_WIDTH / w);
      var cw = Math.round(w * scale), ch = Math.round(h * scale);
      if (canvas.width !== cw || canvas.height !== ch) {
        canvas.width = cw;
        canvas.height = ch;
      }
      ctx.drawImage(video, 0, 0, cw, ch);
      var frame = ctx.getImageData(0, 0, cw, ch);
      // A ticket's QR code is black on white, in dark mode too: reading
      // each frame once, not also inverted, halves the work.
      var qr = window.jsQR(frame.data, cw, ch, { inversionAttempts: 'dontInvert' });
      return Promise.resolve(qr ? qr.data : '');
    };
  }

  // reader resolves to the reader this browser has, or null when it has
  // none (no BarcodeDetector for QR codes, and jsQR did not load).
  function reader() {
    if (read) { return Promise.resolve(read); }
    return nativeReader().then(function (r) {
      read = r || jsQRReader();
      return read;
    });
  }

  // ---- on and off ----

  function start() {
    if (state === 'starting' || state === 'scanning') { return; }
    var mine = ++run;
    state = 'starting';
    render(t('camera_starting'));
    Promise.all([
      navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false }),
      reader()
    ]).then(function (got) {
      if (mine !== run) { stopTracks(got[0]); return; } // stopped meanwhile
      if (!got[1]) {
        stopTracks(got[0]);
        fail(t('camera_no_qr'));
        return;
      }
      stream = got[0];
      ui.video.srcObject = stream;
      var playing = ui.video.play();
      if (playing && playing.catch) { playing.catch(function () {}); } // stopped before it played
      state = 'scanning';
      render();
      next(mine);
    }, function (err) {
      if (mine === run) { fail(cameraProblem(err)); }
    });
  }

  function cameraProblem(err) {
    switch (err && err.name) {
      case 'NotAllowedError':
      case 'SecurityError':
        return t('camera_not_allowed');
      case 'NotFoundError':
      case 'OverconstrainedError':
        return t('camera_not_found');
      case 'NotReadableError':
        return t('camera_in_use');
      default:
        return t('camera_failed');
    }
  }

  function stopTracks(s) {
    if (s) { s.getTracks().forEach(function (track) { track.stop(); }); }
  }

  // off releases the camera and forgets the run; the box stays as render
  // draws it next.
  function off() {
    run++;
    clearTimeout(timer);
    timer = 0;
    stopTracks(stream);
    stream = null;
    ui.video.srcObject = null;
  }

  function stop() {
    off();
    state = 'off';
    render();
  }

  function fail(text) {
    off();
    state = 'failed';
    render(text);
    ui.code.focus();
  }

  // ---- scanning ----

  function next(mine) {
    timer = setTimeout(function () { scanFrame(mine); }, FRAME_MS);
  }

  function scanFrame(mine) {
    if (mine !== run || state !== 'scanning') { return; }
    if (ui.video.readyState < 2) { next(mine); return; } // no frame yet
    read(ui.video).then(function (text) {
      if (mine !== run || state !== 'scanning') { return; }
      text = (text || '').trim();
      if (text) { admit(text); } else { next(mine); }
    }, function () {
      if (mine === run) { next(mine); } // a frame the reader could not take: try the next
    });
  }

  // admit sends what the camera read as if it had been typed.
  function admit(text) {
    stop();
    ui.code.value = text;
    if (ui.form.requestSubmit) { ui.form.requestSubmit(); } else { ui.form.submit(); }
  }

  // ---- wiring ----

  ui.scan.addEventListener('click', start);
  ui.stop.addEventListener('click', stop);
  // A door phone put in a pocket, or a page left, lets the camera go.
  doc.addEventListener('visibilitychange', function () {
    if (doc.visibilityState === 'hidden' && state !== 'off' && state !== 'failed') { stop(); }
  });
  window.addEventListener('pagehide', function () { if (stream) { stop(); } });

  ui.scan.hidden = false;
})();
