// openurld companion: the content script (every frame, from document_start).
// Asks the background where a link would go as soon as the user starts clicking it
// (pointerdown/mousedown, focus, Enter), so the click itself usually finds the answer ready:
// a link the browser keeps is left alone; a link that goes elsewhere is stopped and sent to
// openurld. A click that comes before the answer waits for it (at most 1.5 s) and then either
// goes to openurld or is navigated here. On any error the browser keeps the link.
"use strict";

(() => {
  const api = globalThis.browser ?? globalThis.chrome;
  const SCHEMES = ["http:", "https:", "mailto:"];
  const WAIT_MS = 1500;
  const FRESH_MS = 5000;
  const MAX_TEXT_BYTES = 65536;
  const HTML = "http://www.w3.org/1999/xhtml";
  const cache = new Map(); // key -> {state: "pending"|"keep"|"elsewhere"|"error", at, promise}

  // The <a href>/<area href> an event is about (through shadow roots), or null.
  function linkOf(event) {
    const path = typeof event.composedPath === "function" ? event.composedPath() : [event.target];
    for (const node of path) {
      if (!node || node.nodeType !== 1 || node.namespaceURI !== HTML) continue;
      if ((node.localName === "a" || node.localName === "area") && node.hasAttribute("href")) return node;
    }
    return null;
  }

  function hrefOf(link) {
    if (link.hasAttribute("download")) return null; // the user asked for a download
    try {
      const url = new URL(link.href);
      return SCHEMES.includes(url.protocol) ? url.href : null;
    } catch {
      return null;
    }
  }

  function clip(text) {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length <= MAX_TEXT_BYTES) return text;
    return new TextDecoder().decode(bytes.subarray(0, MAX_TEXT_BYTES)).replace(/\uFFFD$/, "");
  }

  // What the user sees: the link's text, else the alt of its image (an <area>'s own alt).
  function textOf(link) {
    let text = link.localName === "area" ? (link.getAttribute("alt") || "") : (link.innerText || link.textContent || "");
    text = text.trim();
    if (!text && link.localName === "a") {
      for (const image of link.querySelectorAll("img[alt]")) {
        text = image.getAttribute("alt").trim();
        if (text) break;
      }
    }
    return clip(text);
  }

  function ask(message) {
    try {
      return Promise.resolve(api.runtime.sendMessage(message)).then(
        (answer) => answer || { error: "no answer" },
        (error) => ({ error: String(error) }));
    } catch (error) {
      return Promise.resolve({ error: String(error) });
    }
  }

  const keyOf = (href, text) => href + "\n" + text;

  // Asks for the decision of `link` unless a fresh one is cached or on its way.
  function prefetch(link) {
    const href = hrefOf(link);
    if (!href) return null;
    const text = textOf(link);
    const key = keyOf(href, text);
    const known = cache.get(key);
    if (known && (known.state === "pending" || Date.now() - known.at < FRESH_MS)) return known;
    const entry = { state: "pending", at: Date.now(), promise: null };
    entry.promise = ask({ type: "explain", url: href, origin: location.href, text }).then((answer) => {
      if (answer.error !== undefined || typeof answer.keep !== "boolean") entry.state = "error";
      else entry.state = answer.keep ? "keep" : "elsewhere";
      entry.at = Date.now();
      entry.answer = answer;
      return entry;
    });
    cache.set(key, entry);
    if (cache.size > 256) cache.delete(cache.keys().next().value);
    return entry;
  }

  // Navigates as the click would have: this frame, or the link's target.
  function navigate(link, href) {
    const target = (link.getAttribute("target") || "").trim();
    if (!target || target.toLowerCase() === "_self") {
      location.assign(href);
    } else if (target.toLowerCase() === "_blank") {
      window.open(href, "_blank", "noopener");
    } else {
      window.open(href, target);
    }
  }

  function sendOpen(link, href, text) {
    ask({ type: "open", url: href, origin: location.href, text }).then((answer) => {
      if (answer.error !== undefined || answer.outcome === undefined) navigate(link, href);
    });
  }

  function plainPrimary(event) {
    return event.isTrusted && event.button === 0 && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.metaKey;
  }

  function onPress(event) {
    if (!plainPrimary(event)) return;
    const link = linkOf(event);
    if (link) prefetch(link);
  }

  function onFocus(event) {
    if (!event.isTrusted) return;
    const link = linkOf(event);
    if (link) prefetch(link);
  }

  function onKey(event) {
    if (!event.isTrusted || event.key !== "Enter" || event.ctrlKey || event.shiftKey || event.altKey || event.metaKey) return;
    const link = linkOf(event);
    if (link) prefetch(link);
  }

  function onClick(event) {
    if (!plainPrimary(event) || event.defaultPrevented) return;
    const link = linkOf(event);
    if (!link) return;
    const href = hrefOf(link);
    if (!href) return;
    const text = textOf(link);
    const known = cache.get(keyOf(href, text));
    // Kept (or the host could not say): the browser does what it always does, at once.
    if (known && (known.state === "keep" || known.state === "error")) {
      if (known.state === "error") cache.delete(keyOf(href, text));
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    if (known && known.state === "elsewhere") {
      sendOpen(link, href, text);
      return;
    }
    const entry = known || prefetch(link);
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), WAIT_MS); });
    Promise.race([entry.promise, late]).then((settled) => {
      clearTimeout(timer);
      if (settled && settled.state === "elsewhere") sendOpen(link, href, text);
      else navigate(link, href);
    });
  }

  window.addEventListener("pointerdown", onPress, true);
  window.addEventListener("mousedown", onPress, true);
  window.addEventListener("focusin", onFocus, true);
  window.addEventListener("keydown", onKey, true);
  window.addEventListener("click", onClick, true);
})();
