#!/usr/bin/python3 -I
"""A stand-in for openurld's native messaging host (issue 34), for the browser tests.

Run as `standin-native-host.py RECORD_DIR [browser's arguments...]` (the test's wrapper script
bakes RECORD_DIR in). Speaks the companion's protocol on stdin/stdout (32-bit native-endian
length, then JSON). Answers `keep` for a link whose host contains "stay" (or is the page's own
host while the sameSite setting is off) and "elsewhere" (chromium:Elsewhere) otherwise; it
answers late for a host containing "lag" (0.5 s) or "slow" (3 s: after the extension's 1.5 s timeout).
Records in RECORD_DIR:
  launch.jsonl    one line per start: argv, cwd, pid, ppid, the parent's cmdline, time
  messages.jsonl  every message received, with the pid and time
  opens.jsonl     every `open` message
  exit.jsonl      one line per exit (stdin closed), with the time
"""
import json
import os
import struct
import sys
import time
from urllib.parse import urlsplit

record = sys.argv[1]


def log(name, entry):
    entry = dict(entry, pid=os.getpid(), time=time.time())
    with open(os.path.join(record, name), "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")


def parent_cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
    except OSError as e:
        return [str(e)]


ppid = os.getppid()
log("launch.jsonl", {"argv": sys.argv[2:], "argv0": sys.argv[0], "cwd": os.getcwd(), "ppid": ppid,
                     "parent": parent_cmdline(ppid),
                     "env": {k: v for k, v in os.environ.items() if k in ("HOME", "XDG_CONFIG_HOME", "DISPLAY", "MOZ_CRASHREPORTER_DATA_DIRECTORY", "CHROME_WRAPPER")}})

stdin = sys.stdin.buffer
stdout = sys.stdout.buffer


def read_message():
    head = stdin.read(4)
    if len(head) < 4:
        return None
    (length,) = struct.unpack("=I", head)
    return json.loads(stdin.read(length).decode("utf-8"))


def send(message):
    data = json.dumps(message).encode("utf-8")
    stdout.write(struct.pack("=I", len(data)) + data)
    stdout.flush()


def host_of(url):
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def keeps(message):
    url = message.get("url", "")
    if url.startswith("mailto:"):
        return False
    host = host_of(url)
    if "stay" in host:
        return True
    if not message.get("sameSite", False) and host and host == host_of(message.get("origin", "")):
        return True
    return False


while True:
    message = read_message()
    if message is None:
        break
    log("messages.jsonl", {"message": message})
    ident = message.get("id")
    kind = message.get("type")
    if kind == "hello":
        send({"id": ident, "ok": True, "host": "0.1.0-standin", "profile": None})
    elif kind == "explain":
        host = host_of(message.get("url", ""))
        if "slow" in host:
            time.sleep(3)
        elif "lag" in host:
            time.sleep(0.5)
        if keeps(message):
            send({"id": ident, "keep": True, "decision": "open", "target": "browser", "why": "stand-in: stays"})
        else:
            send({"id": ident, "keep": False, "decision": "open", "target": "chromium:Elsewhere", "why": "stand-in: elsewhere"})
    elif kind == "open":
        log("opens.jsonl", {"url": message.get("url"), "origin": message.get("origin"), "text": message.get("text")})
        send({"id": ident, "outcome": "done", "decision": "open", "target": "chromium:Elsewhere"})
    else:
        send({"id": ident, "error": "unknown type %r" % kind})

log("exit.jsonl", {"reason": "stdin closed"})
