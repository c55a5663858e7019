// The browser client end to end: rewind-server serves the page (`make web`) and takes WebSocket players; headless
// Chromium (puppeteer-core from web/node_modules) opens it with the scripted input, and the test reads
// window.rewindStats and a screenshot. Two runs: alone (prediction must be exact: no correction), then a mixed
// match (two browser tabs, a native headless bot over UDP, server bots) in which the players see each other.
//
// A third run requires connect tokens: a tab with credentials plays sealed (libsodium's wasm build in the page),
// one without is refused.
//
//   node tests/e2e/browser_test.js --server BIN --client BIN --token BIN --site DIR --modules DIR --work DIR
//
// Exit 0 when every check passes, 1 when one fails, 77 (skipped) when Chromium, puppeteer-core or the page
// is missing.
'use strict';

const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const SNAPSHOT_HZ = 30;  // rewind-server's default snapshot rate
const palette = {       // apps/client/palette.hpp
  background: [22, 26, 34], wall: [122, 128, 146], own: [72, 208, 120], ownRing: [130, 255, 180],
  others: [[232, 88, 80], [86, 150, 240], [222, 120, 230], [240, 200, 70], [80, 220, 220], [240, 140, 90]],
};

function args() {
  const a = {};
  for (let i = 2; i + 1 < process.argv.length; i += 2) a[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
  for (const k of ['server', 'client', 'token', 'site', 'modules', 'work'])
    if (!a[k]) { console.error(`browser_test: --${k} is missing`); process.exit(2); }
  return a;
}

function skip(why) {
  console.log(`browser_test: skipped: ${why}`);
  process.exit(77);
}

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? '  ok  ' : 'FAILED'} ${what}`);
  if (!ok) failures += 1;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/// A program whose output is kept (and written to `log`), and whose log lines can be awaited.
function start(bin, argv, log) {
  const p = spawn(bin, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  p.text = '';
  const out = fs.createWriteStream(log);
  for (const s of [p.stdout, p.stderr]) s.on('data', (d) => { p.text += d.toString(); out.write(d); });
  p.done = new Promise((resolve) => p.on('exit', (code) => resolve(code)));
  return p;
}

async function waitFor(p, re, ms) {
  for (let t = 0; t < ms; t += 50) {
    const m = p.text.match(re);
    if (m) return m;
    await sleep(50);
  }
  throw new Error(`no ${re} within ${ms} ms; output:\n${p.text}`);
}

/// The pixels of a PNG (8-bit RGB or RGBA, not interlaced: what Chromium writes).
function decodePng(buf) {
  let pos = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), type = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('PNG not 8-bit non-interlaced');
      channels = { 2: 3, 6: 4 }[data[9]];
      if (!channels) throw new Error(`PNG colour type ${data[9]}`);
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels, px = Buffer.alloc(width * height * 3);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; ++y) {
    const f = raw[y * (stride + 1)], line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; ++x) {
      const a = x >= channels ? line[x - channels] : 0, b = prev[x], c = x >= channels ? prev[x - channels] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      line[x] = (line[x] + pred) & 255;
    }
    for (let x = 0; x < width; ++x) line.copy(px, (y * width + x) * 3, x * channels, x * channels + 3);
    prev = line;
  }
  return { width, height, px };
}

/// How many pixels of the screenshot have exactly each colour.
function colourCounts(png, colours) {
  const counts = colours.map(() => 0);
  for (let i = 0; i < png.px.length; i += 3)
    colours.forEach((c, k) => { if (png.px[i] === c[0] && png.px[i + 1] === c[1] && png.px[i + 2] === c[2]) counts[k] += 1; });
  return counts;
}

async function openTab(browser, url, name) {
  // Each tab in a context (a window) of its own: a background tab gets no animation frames, so it would not play.
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1024, height: 768 });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  await page.goto(url);
  page.tabName = name;
  page.seen = new Set();  // every remote player this tab drew, over the whole run
  return page;
}

/// Polls a tab's stats until it is done (or `ms` passed); keeps the union of the players it drew.
async function follow(page, ms, onPlaying) {
  let s = {}, shot = false;
  for (let t = 0; t < ms; t += 250) {
    s = await page.evaluate(() => window.rewindStats || {});
    for (const id of s.players_visible || []) page.seen.add(id);
    if (!shot && s.phase === 'playing' && s.played_s > 4) { shot = true; await onPlaying(page, s); }
    if (s.done) break;
    await sleep(250);
  }
  return s;
}

function checkPlayed(name, s, seconds, page) {
  s = Object.assign({ played_s: 0, snapshots_received: 0, rtt_ms: 0, max_error_m: 0 }, s);
  check(s.done === true && s.phase === 'disconnected', `${name}: the script ran and the page left (phase ${s.phase})`);
  check(s.disconnect === 'client_quit', `${name}: left cleanly (disconnect ${s.disconnect})`);
  check(s.played_s >= seconds - 0.5, `${name}: played ${s.played_s.toFixed(1)} s of ${seconds}`);
  const expected = SNAPSHOT_HZ * s.played_s;
  check(s.snapshots_received >= 0.9 * expected,
        `${name}: ${s.snapshots_received} snapshots of ${expected.toFixed(0)} expected (>= 90 %)`);
  check(s.malformed === 0 && s.events_out_of_order === 0 && s.transport_refused === 0,
        `${name}: nothing malformed, out of order or refused`);
  check(s.rtt_ms > 0 && s.rtt_ms < 100, `${name}: RTT ${s.rtt_ms} ms measured`);
  console.log(`       ${name}: slot ${s.slot}, corrections ${s.corrections} (max ${(s.max_error_m * 100).toFixed(1)} cm), ` +
              `interp starvations ${s.interp_starvations}, ${s.frames} frames, saw ${[...page.seen].join(' ')}`);
  check(page.errors.length === 0, `${name}: no page errors ${page.errors.join('; ')}`);
}

async function screenshotCheck(page, file, wantOthers) {
  await page.screenshot({ path: file });
  const png = decodePng(fs.readFileSync(file));
  const total = png.width * png.height;
  const [bg, wall, own, ring, ...others] = colourCounts(png, [palette.background, palette.wall, palette.own,
                                                              palette.ownRing, ...palette.others]);
  const otherPx = others.reduce((a, b) => a + b, 0);
  check(bg > 0.2 * total, `${page.tabName}: screenshot shows the arena floor (${bg} px)`);
  check(wall > 0.01 * total, `${page.tabName}: and its walls (${wall} px)`);
  check(own + ring > 20, `${page.tabName}: and the own player or its ring (${own} + ${ring} px)`);
  if (wantOthers) check(otherPx > 20, `${page.tabName}: and other players (${otherPx} px)`);
}

async function main() {
  const a = args();
  let puppeteer;
  try { puppeteer = require(path.resolve(a.modules, 'puppeteer-core')); } catch (e) { skip('puppeteer-core is not installed (make web)'); }
  const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
  if (!chromium) skip('no Chromium');
  if (!fs.existsSync(path.join(a.site, 'rewind-web.wasm'))) skip(`no page in ${a.site} (make web)`);
  fs.mkdirSync(a.work, { recursive: true });
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-timer-throttling',
           '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows'] });
  const procs = [];
  try {
    // 1. Alone on a clean loopback link: prediction is exact, so not one correction.
    console.log('run 1: one browser alone, 8 s');
    const alone = start(a.server, ['--port', '0', '--ws-port', '0', '--http-port', '0', '--web-root', a.site,
                                   '--bots', '0', '--duration', '60'], path.join(a.work, 'server_alone.log'));
    procs.push(alone);
    const http1 = (await waitFor(alone, /event=metrics_listening port=(\d+)/, 10000))[1];
    await waitFor(alone, /event=websocket_listening port=(\d+)/, 10000);
    // The page finds the WebSocket port itself, from the server's web-config.json.
    const solo = await openTab(browser, `http://127.0.0.1:${http1}/?autoplay=8&seed=1`, 'alone');
    const s1 = await follow(solo, 40000, (p) => screenshotCheck(p, path.join(a.work, 'alone.png'), false));
    checkPlayed('alone', s1, 8, solo);
    check(s1.corrections === 0, `alone: no correction on a clean link (${s1.corrections})`);
    alone.kill('SIGTERM');
    await alone.done;

    // 2. A mixed match: two tabs over WebSocket, a native bot over UDP, two server bots; 20 s.
    console.log('run 2: two browsers, a native bot and two server bots, 20 s');
    const mixed = start(a.server, ['--port', '0', '--ws-port', '0', '--http-port', '0', '--web-root', a.site,
                                   '--bots', '2', '--duration', '90'], path.join(a.work, 'server_mixed.log'));
    procs.push(mixed);
    const udp = (await waitFor(mixed, /event=listening port=(\d+)/, 10000))[1];
    const http2 = (await waitFor(mixed, /event=metrics_listening port=(\d+)/, 10000))[1];
    const ws = (await waitFor(mixed, /event=websocket_listening port=(\d+)/, 10000))[1];
    const native = start(a.client, ['--headless', '--bot', '--connect', `127.0.0.1:${udp}`, '--duration', '24',
                                    '--seed', '5'], path.join(a.work, 'native.log'));
    procs.push(native);
    await waitFor(native, /event=playing slot=(\d+)/, 15000);
    const nativeSlot = Number(native.text.match(/event=playing slot=(\d+)/)[1]);
    // One tab finds the server from web-config.json, the other from ?server=.
    const tabA = await openTab(browser, `http://127.0.0.1:${http2}/?autoplay=20&seed=2`, 'tab A');
    const tabB = await openTab(browser, `http://127.0.0.1:${http2}/?autoplay=20&seed=3&server=ws://127.0.0.1:${ws}/rewind`, 'tab B');
    const [sA, sB] = await Promise.all([
      follow(tabA, 60000, (p) => screenshotCheck(p, path.join(a.work, 'mixed_a.png'), true)),
      follow(tabB, 60000, (p) => screenshotCheck(p, path.join(a.work, 'mixed_b.png'), true)),
    ]);
    checkPlayed('tab A', sA, 20, tabA);
    checkPlayed('tab B', sB, 20, tabB);
    check(tabA.seen.has(sB.slot) && tabB.seen.has(sA.slot), 'the two tabs drew each other');
    check(tabA.seen.has(nativeSlot) && tabB.seen.has(nativeSlot), `both tabs drew the native bot (slot ${nativeSlot})`);
    const nativeCode = await native.done;
    const report = JSON.parse((native.text.match(/^final (.*)$/m) || [null, '{}'])[1]);
    check(nativeCode === 0, `native bot: exit ${nativeCode}, played ${report.played_s} s`);
    check(report.snapshots_received >= 0.9 * SNAPSHOT_HZ * (report.played_s || 1),
          `native bot: ${report.snapshots_received} snapshots`);
    const nativeSaw = new Set(report.players_seen || []);
    check(nativeSaw.has(sA.slot) && nativeSaw.has(sB.slot),
          `the native bot saw both tabs (slots ${sA.slot}, ${sB.slot}; it saw ${[...nativeSaw].join(',')})`);
    const goodbyes = (mixed.text.match(/said goodbye/g) || []).length;
    check(goodbyes >= 3, `server: ${goodbyes} goodbyes (two tabs and the native bot)`);
    mixed.kill('SIGTERM');
    await mixed.done;

    // 3. Tokens required: the page's credentials seal every packet after the hello; no token, no seat.
    console.log('run 3: tokens required, one tab sealed for 5 s, one without a token');
    const keys = path.join(a.work, 'keys');
    fs.rmSync(keys, { recursive: true, force: true });  // keygen does not write over an earlier run's keys
    fs.mkdirSync(keys, { recursive: true });
    const key = (f) => path.join(keys, f);
    const keygen = start(a.token, ['keygen', '--secret-key', key('backend.secret'), '--public-key', key('backend.public'),
                                   '--sealing-key', key('servers.sealing')], path.join(a.work, 'keygen.log'));
    check(await keygen.done === 0, 'rewind-token keygen');
    const sealed = start(a.server, ['--port', '0', '--ws-port', '0', '--http-port', '0', '--web-root', a.site,
                                    '--public-key', key('backend.public'), '--sealing-key', key('servers.sealing'),
                                    '--bots', '0', '--duration', '60'], path.join(a.work, 'server_sealed.log'));
    procs.push(sealed);
    const udp3 = (await waitFor(sealed, /event=listening port=(\d+)/, 10000))[1];
    const http3 = (await waitFor(sealed, /event=metrics_listening port=(\d+)/, 10000))[1];
    const mint = start(a.token, ['mint', '--client-id', '7', '--server', `127.0.0.1:${udp3}`, '--expires-in', '5m',
                                 '--secret-key', key('backend.secret'), '--sealing-key', key('servers.sealing')],
                       path.join(a.work, 'mint.log'));
    check(await mint.done === 0, 'rewind-token mint');
    const token = mint.text.trim().split(/\s+/).pop();
    const withToken = await openTab(browser, `http://127.0.0.1:${http3}/?autoplay=5&seed=4&token=${token}`, 'sealed');
    const s3 = await follow(withToken, 30000, async () => {});
    checkPlayed('sealed', s3, 5, withToken);
    check(s3.encrypted === true, 'sealed: the session was sealed');
    const without = await openTab(browser, `http://127.0.0.1:${http3}/?autoplay=5&seed=5`, 'no token');
    const s4 = await follow(without, 30000, async () => {});
    check(s4.done === true && s4.disconnect === 'unauthorized' && s4.snapshots_received === 0,
          `no token: refused (disconnect ${s4.disconnect}, ${s4.snapshots_received} snapshots)`);
    check(!/rejected_forged=[1-9]/.test(sealed.text), 'server: no sealed packet failed to open');
  } finally {
    await browser.close();
    for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
  }
  console.log(failures ? `browser_test: ${failures} check(s) failed` : 'browser_test: passed');
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(`browser_test: ${e.stack || e}`);
  process.exit(1);
});
