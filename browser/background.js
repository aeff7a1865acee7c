// openurld companion: the background (a service worker in Chromium, an event page in Firefox).
// One native port to the openurld host, request ids, a 1.5 s timeout per request; relays the
// content scripts' questions. Any failure is answered with {error}: the page then keeps the link.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const HOST = "io.github.openurld";
const TIMEOUT_MS = 1500;
const RECONNECT_MS = 1000;
const SCHEMES = ["http:", "https:", "mailto:"];
const BROWSER = api.runtime.getURL("").startsWith("moz-extension:") ? "firefox" : "chromium";

let port = null;
let nextId = 1;
let lastConnect = 0;
let reconnectTimer = null;
let hello = null; // the host's answer to hello, for the options page
let lastError = null;
let failures = 0; // ports in a row that closed before the host answered anything
const pending = new Map(); // id -> {resolve, timer}

// A random id this profile's copy of the extension keeps in storage.local: the host finds it in
// the profile's extension storage on disk, which tells it the profile (one Chromium process
// serves every profile, so its process cannot). Known a moment after the worker starts; a hello
// sent before that goes without it and is followed by one with it. No request waits for it.
let instanceId = "";
api.storage.local.get({ instance: "" }).then(async (items) => {
  let id = typeof items.instance === "string" ? items.instance : "";
  if (!id) {
    id = crypto.randomUUID();
    await api.storage.local.set({ instance: id });
  }
  instanceId = id;
  if (port) sayHello();
}).catch(() => {});

function sayHello() {
  request({ type: "hello", browser: BROWSER, version: api.runtime.getManifest().version, instance: instanceId }).then((answer) => {
    if (answer && answer.ok) { hello = answer; lastError = null; }
  });
}

let sameSite = false;
const settingsLoaded = api.storage.local.get({ sameSite: false }).then(
  (items) => { sameSite = items.sameSite === true; },
  () => {});
api.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && changes.sameSite) sameSite = changes.sameSite.newValue === true;
});

function settle(id, answer) {
  const entry = pending.get(id);
  if (!entry) return;
  pending.delete(id);
  clearTimeout(entry.timer);
  entry.resolve(answer);
}

// Reconnects by itself after a disconnect: after 1 s, and backing off to a minute while the host
// keeps failing (not installed, crashing). A request reconnects at once (still at most once a second).
function scheduleReconnect() {
  if (reconnectTimer !== null) return;
  const backoff = Math.min(60000, RECONNECT_MS * 2 ** Math.min(failures, 6));
  const wait = Math.max(0, lastConnect + backoff - Date.now());
  reconnectTimer = setTimeout(() => { reconnectTimer = null; connect(); }, wait);
}

// Connects unless connected; at most once per second. Returns the port or null.
function connect() {
  if (port) return port;
  if (reconnectTimer !== null) { clearTimeout(reconnectTimer); reconnectTimer = null; }
  if (Date.now() - lastConnect < RECONNECT_MS) { scheduleReconnect(); return null; }
  lastConnect = Date.now();
  let opened;
  try {
    opened = api.runtime.connectNative(HOST);
  } catch (error) {
    lastError = String(error);
    scheduleReconnect();
    return null;
  }
  port = opened;
  let answered = false;
  opened.onMessage.addListener((message) => {
    answered = true;
    failures = 0;
    if (message && Number.isInteger(message.id)) settle(message.id, message);
  });
  opened.onDisconnect.addListener((p) => {
    const error = (p && p.error && p.error.message) || (api.runtime.lastError && api.runtime.lastError.message) || "the host exited";
    lastError = error;
    if (port === opened) port = null;
    if (!answered) failures += 1;
    hello = null;
    for (const id of [...pending.keys()]) settle(id, { id, error: "openurld host disconnected: " + error });
    scheduleReconnect();
  });
  sayHello();
  return opened;
}

// Sends one request; resolves with the host's answer or {error}. Never rejects.
function request(message) {
  return new Promise((resolve) => {
    const p = port ?? connect();
    if (!p) { resolve({ error: "no connection to the openurld host" + (lastError ? ": " + lastError : "") }); return; }
    const id = nextId++;
    const timer = setTimeout(() => settle(id, { id, error: "the openurld host did not answer within 1.5 s" }), TIMEOUT_MS);
    pending.set(id, { resolve, timer });
    try {
      p.postMessage({ id, ...message });
    } catch (error) {
      settle(id, { id, error: String(error) });
    }
  });
}

function linkURL(value) {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return SCHEMES.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

async function handle(message, sender) {
  if (!message || typeof message !== "object") return { error: "bad message" };
  if (message.type === "status") return { connected: port !== null, hello, error: lastError, browser: BROWSER };
  const url = linkURL(message.url);
  if (!url) return { error: "not an http, https or mailto link" };
  // The frame's own URL, as the browser tells it (a page cannot fake it).
  const origin = (sender && sender.url) || (typeof message.origin === "string" ? message.origin : "");
  const text = typeof message.text === "string" ? message.text : "";
  if (message.type === "explain") {
    await settingsLoaded;
    return request({ type: "explain", url, origin, text, sameSite });
  }
  if (message.type === "open") return request({ type: "open", url, origin, text });
  return { error: "unknown message type" };
}

api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (sender.id !== api.runtime.id) return false;
  handle(message, sender).then(sendResponse, (error) => sendResponse({ error: String(error) }));
  return true;
});

// Chromium starts the worker at browser start only for a listener of onStartup.
api.runtime.onStartup.addListener(() => connect());
api.runtime.onInstalled.addListener(() => connect());
connect();
