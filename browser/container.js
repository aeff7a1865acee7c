// openurld companion (Firefox): opens a link in a named container.
// openurld launches `firefox-esr --profile DIR 'ext+openurld:open?container=NAME&url=URL'`
// (both values percent-encoded); Firefox hands that to this page as its fragment
// (protocol_handlers' "/container.html#%s", the whole link percent-encoded once more).
"use strict";

const api = globalThis.browser ?? globalThis.chrome;

function say(title, message, isError) {
  document.getElementById("title").textContent = title;
  const p = document.getElementById("message");
  p.textContent = message;
  p.className = isError ? "error" : "";
}

// ext+openurld:open?container=A&url=B -> {verb, params}; only %XX is decoded ("+" stays "+").
function parse(fragment) {
  const link = decodeURIComponent(fragment);
  const match = /^ext\+openurld:([a-z]+)\?(.*)$/s.exec(link);
  if (!match) throw new Error("not an ext+openurld link: " + link);
  const params = new Map();
  for (const pair of match[2].split("&")) {
    const equals = pair.indexOf("=");
    if (equals < 0) continue;
    params.set(decodeURIComponent(pair.slice(0, equals)), decodeURIComponent(pair.slice(equals + 1)));
  }
  return { verb: match[1], params };
}

async function findContainer(name) {
  const exact = await api.contextualIdentities.query({ name });
  if (exact.length > 0) return { found: exact[0], all: null };
  const all = await api.contextualIdentities.query({});
  const lower = name.toLowerCase();
  return { found: all.find((c) => c.name.toLowerCase() === lower) || null, all };
}

async function main() {
  const self = await api.tabs.getCurrent();
  let request;
  try {
    request = parse(location.hash.slice(1));
  } catch (error) {
    say("openurld could not read this link", String(error.message || error), true);
    return;
  }
  const url = request.params.get("url") || "";
  const name = request.params.get("container") || "";
  let parsed;
  try { parsed = new URL(url); } catch { parsed = null; }
  if (request.verb !== "open" || !parsed || !["http:", "https:"].includes(parsed.protocol)) {
    say("openurld opens only http and https links in a container", url, true);
    return;
  }
  const placement = self ? { windowId: self.windowId, index: self.index + 1 } : {};
  let lookup;
  try {
    lookup = await findContainer(name);
  } catch (error) {
    // Containers are turned off (or the API is missing): say so, and never lose the link.
    say("Containers are not available", String(error.message || error) + " — opened " + url + " without a container.", true);
    await api.tabs.create({ url, ...placement });
    return;
  }
  if (lookup.found) {
    await api.tabs.create({ url, cookieStoreId: lookup.found.cookieStoreId, ...placement });
    if (self) await api.tabs.remove(self.id);
    return;
  }
  say("No container named “" + name + "”",
      "openurld opened " + url + " without a container. The containers of this profile are:", true);
  const list = document.getElementById("containers");
  for (const container of lookup.all || []) {
    const item = document.createElement("li");
    item.textContent = container.name;
    list.appendChild(item);
  }
  await api.tabs.create({ url, ...placement, active: false });
}

main().catch((error) => say("openurld could not open the link", String(error && error.message || error), true));
