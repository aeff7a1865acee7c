"use strict";
const api = globalThis.browser ?? globalThis.chrome;
const box = document.getElementById("sameSite");
const status = document.getElementById("status");

api.storage.local.get({ sameSite: false }).then((items) => { box.checked = items.sameSite === true; });
box.addEventListener("change", () => { api.storage.local.set({ sameSite: box.checked }); });

api.runtime.sendMessage({ type: "status" }).then((answer) => {
  if (answer && answer.hello) status.textContent = "Connected to openurld " + answer.hello.host + (answer.hello.profile ? " (profile " + answer.hello.profile + ")" : "") + ".";
  else status.textContent = "Not connected to openurld" + (answer && answer.error ? ": " + answer.error : "") + ". Links stay in the browser.";
}, () => { status.textContent = "Not connected to openurld."; });
