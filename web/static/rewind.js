// rewind's page bridge: finds the server (?server=, else /web-config.json from rewind-server --web-root),
// waits for libsodium, then starts the WebAssembly client (rewind-web.js), which reads window.rewindConfig
// and publishes window.rewindStats every frame.
'use strict';

(function () {
  const params = new URLSearchParams(window.location.search);
  window.rewindStats = { phase: 'loading', done: false, frames: 0, problem: '' };

  function showMessage(text) {
    const box = document.getElementById('message');
    box.textContent = text;
    box.hidden = false;
    window.rewindStats.problem = text;
  }

  // ?autoplay=SECONDS&seed=N: the scripted input for tests; ?overlay=0 hides the netcode panel; ?ghosts=1;
  // ?token=HEX: connect credentials as rewind-token prints them.
  function numberParam(name, fallback) {
    if (!params.has(name)) return fallback;
    const v = Number(params.get(name));
    return Number.isFinite(v) ? v : fallback;
  }

  async function findServer() {
    if (params.get('server')) return { server: params.get('server') };
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    try {
      const reply = await fetch('web-config.json', { cache: 'no-store' });
      if (!reply.ok) throw new Error('HTTP ' + reply.status);
      const config = await reply.json();
      const port = Number(config.ws_port);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('no ws_port in it');
      const host = window.location.hostname.includes(':') ? '[' + window.location.hostname + ']'
                                                          : window.location.hostname;
      return { server: scheme + '://' + host + ':' + port + '/rewind' };
    } catch (e) {
      return { server: '', problem: 'no server: open this page with ?server=ws://HOST:PORT/rewind, or from ' +
        'rewind-server --web-root (web-config.json: ' + e.message + ')' };
    }
  }

  async function sodiumReady() {
    // A page without a token plays without libsodium; with one, the client refuses to start if it is missing.
    if (!window.sodium || !window.sodium.ready) return false;
    try {
      await window.sodium.ready;
      return true;
    } catch (e) {
      return false;
    }
  }

  async function start() {
    const found = await findServer();
    await sodiumReady();
    window.rewindConfig = {
      server: found.server,
      problem: found.problem || '',
      autoplay: numberParam('autoplay', 0),
      seed: numberParam('seed', 1),
      token: params.get('token') || '',
      overlay: numberParam('overlay', 1),
      ghosts: numberParam('ghosts', 0),
    };
    const canvas = document.getElementById('arena');
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());  // right click is alt-fire
    canvas.focus();
    window.Module = {
      canvas: canvas,
      print: (text) => console.log(text),
      printErr: (text) => console.warn(text),
      onAbort: (what) => {
        window.rewindStats.done = true;
        showMessage('the client stopped: ' + what);
      },
    };
    const script = document.createElement('script');
    script.src = 'rewind-web.js';
    script.onerror = () => {
      window.rewindStats.done = true;
      showMessage('rewind-web.js did not load: build the page with `make web`');
    };
    document.body.appendChild(script);
  }

  start();
})();
