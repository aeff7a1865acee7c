#!/usr/bin/env python3
"""Reference side of the WHATWG host differential test (Tests/RoutingTests/AdaDifferentialTests).

  ada_hosts.py corpus [--seed N] [--count N]   print a JSON list of tricky URLs
  ada_hosts.py tails [--seed N] [--count N]    print a JSON list of URLs with tricky paths,
                                               queries and fragments (dot segments, `\\`,
                                               percent-encode sets, controls, tabs, non-ASCII)
  ada_hosts.py parse                           read a JSON list of strings on stdin and print,
                                               for each, what ada (the WHATWG URL parser Node.js
                                               uses, PyPI `ada-url`) makes of it:
                                               {"ok": bool, "host": str, "href": str}
Exit status 3 when ada-url is not installed.
"""
import itertools
import json
import random
import sys

SCHEMES = ["https", "http", "HTTPS", "ws", "wss", "ftp"]
SEPARATORS = ["://", ":/", ":", ":\\\\", ":/\\", ":///", "://\\"]
USERINFO = ["", "u@", "u:p@", "evil.com\\@", "a@b@", "evil.com%40", "u:@", ":p@", "@", "ü:ß@", "a b@"]
HOSTS = [
    "example.org", "EXAMPLE.org", "example.org.", "example.org..", "example\u3002org", "example\uff0eorg",
    "\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.org", "example\uff61org", "b\u00fccher.de", "xn--bcher-kva.de",
    "XN--BCHER-KVA.de", "xn--invalid-", "xn--", "xn--a", "evil.com%00.example.org", "facebook.com%00.example",
    "%65xample.org", "evil.com%2F.example.org", "evil.com%2f@example.org", "0x7f.1", "2130706433", "127.1",
    "0177.0.0.1", "0x7f000001", "127.0.0.1.", "1.2.3.4.5", "256.1.1.1", "1.2.3.09", "0x", "0x.0x.0x.0x",
    "4294967295", "4294967296", "0xffffffff", "1.16777215", "1.16777216", "1.2.65535", "1.2.65536", "0", "08", "09.1",
    "0x7F.0X0.0.1", "127.0.0.1x", "1.2.3.4a", "a.1", "1.a", "[::1]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:0:0:1]",
    "[1::]", "[::]", "[::1:2::]", "[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:7:8:9]", "[::1.2.3]", "[::1.2.3.4.5]",
    "[FFFF::1]", "[1:0:0:2:0:0:0:3]", "[0:0:1:0:0:1:0:0]", "[::01.2.3.4]", "[", "[::1", "::1]", "[x]",
    "example.org%0a", "example.org%0A.evil.com", "ex%09ample.org", "a..b", ".example.org", "-example.org",
    "example-.org", "ab--cd.org", "\u00df.de", "fa\u00df.de", "\ufb00.com", "ex\u00adample.org", "a\u200db.org",
    "\u0627\u0031.com", "\u2603.com", "_dmarc.example.org", "a*b.org", "a$b.org", "a!b.org", "a~b.org", "a'b.org",
    "a(b).org", "a,b.org", "a;b.org", "a=b.org", "a+b.org", "a&b.org", "exa%mple.org", "%zz.org", "%C3%BC.de",
    "%FF.de", "%E2%80%AE.org", "a%2eb.org", "a%2Eexample.org", "example%E3%80%82org", "EXAMPLE%2eORG",
    "a" * 63 + ".org", "a" * 64 + ".org", ".".join(["a" * 60] * 4) + ".org", ".".join(["a" * 50] * 5) + ".org",
    "\u00fc" * 20 + ".de", "\u0661\u0662.com", "\u0130stanbul.tr", "\u212a.com", "\u2126.org", "\u00c5ngstr\u00f6m.se",
    "a\u3002b\uff0ec\uff61d", "\uff10\uff58\uff17\uff46\uff0e\uff11", "\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11",
    "example.org\u3002", "xn--fa-hia.de", "xn--zca.de", "example.org:80", "1.2.3.4:", "localhost", "LOCALHOST.",
    "a%20b.org", "a<b.org", "a>b.org", "a^b.org", "a|b.org", "a\"b.org", "a`b.org", "a{b}.org", "%5B::1%5D",
    "%2e", "..", ".", "%00", "\u0000x.org".replace("\u0000", "%00"), "a\u00a0b.org", "a\u3000b.org",
    "\ufe52example.org", "\u2024.org", "ex\u0301ample.org", "e\u0301.org", "\u00e9.org", "\u1e9e.de",
]
PORTS = ["", ":", ":443", ":0443", ":65536", ":8080", ":8a", ":-1", ":00000000080", ":65535"]
TAILS = ["", "/", "/p", "\\p", "/a b", "?q", "#f", "/../x", "?a\\b", "/p?q#f", "\\\\x/y", "/%2e%2e/", "@x"]


SEGMENTS = ["a", "admin", "", ".", "..", "%2e", "%2E", ".%2e", "%2e.", "%2E%2e", "...", "..a", "%2e%2e%2e", "%2", ".%2",
            "a b", "\"q\"", "<x>", "^", "`", "{}", "|", "[]", "'", "stra\u00dfe", "\u4f60\u597d", "\ufeff", "\u202e",
            "%41%zz%", "a\tb", "a\nb", "a\rb", "\u0000", "\u0001", "\u007f", "\u0080", "\ud83d\udd25", "%00", "a;b=c", "@", ":"]
SLASHES = ["/", "/", "/", "\\", "//"]
QUERIES = ["", "?", "?a=b", "?a b", "?'\"<>", "?a\\b", "?/../x", "?\u00e9", "?%zz", "?a=b&c=d#", "?\u0000", "?\u007f`{}^|",
           "?\t x", "??"]
FRAGMENTS = ["", "#", "#f", "#a b", "#`\"<>", "#\u00e9", "##", "#?x", "#\u0000", "#\u007f{}|^", "#/../x"]
TAIL_HOSTS = ["example.org", "h", "0x7f.1", "[::1]", "b\u00fccher.de", "u:p@example.org"]
TAIL_SCHEMES = ["https", "http", "ws", "wss", "ftp", "HTTPS"]


def tails(seed, count):
    rng = random.Random(seed)
    urls = []
    for segment in SEGMENTS:
        urls.append(f"https://example.org/x/{segment}/y")
        urls.append(f"https://example.org/x/{segment}")
    while len(urls) < count:
        path = "".join(rng.choice(SLASHES) + rng.choice(SEGMENTS) for _ in range(rng.randint(0, 5)))
        urls.append(rng.choice(TAIL_SCHEMES) + "://" + rng.choice(TAIL_HOSTS) + path + rng.choice(QUERIES)
                    + rng.choice(FRAGMENTS))
    return urls[:count]


def corpus(seed, count):
    rng = random.Random(seed)
    urls = []
    # Every host with the common shape, then each other dimension varied on a few hosts.
    for host in HOSTS:
        for tail in ["/", "/p?q#f"]:
            urls.append(f"https://{host}{tail}")
    core = ["example.org", "0x7f.1", "example\u3002org", "[::1]", "evil.com%00.example.org", "b\u00fccher.de"]
    for scheme, sep, host in itertools.product(SCHEMES, SEPARATORS, core):
        urls.append(f"{scheme}{sep}{host}/")
    for user, host in itertools.product(USERINFO, core + ["example.org."]):
        urls.append(f"https://{user}{host}/")
    for port, host in itertools.product(PORTS, core):
        urls.append(f"https://{host}{port}/")
    for tail, host in itertools.product(TAILS, core):
        urls.append(f"https://{host}{tail}")
    while len(urls) < count:
        urls.append(rng.choice(SCHEMES) + rng.choice(SEPARATORS) + rng.choice(USERINFO) + rng.choice(HOSTS)
                    + rng.choice(PORTS) + rng.choice(TAILS))
    return urls[:count] if len(urls) > count else urls


def parse(items):
    import ada_url
    out = []
    for text in items:
        try:
            url = ada_url.URL(text)
            out.append({"ok": True, "host": url.hostname, "href": url.href})
        except ValueError:
            out.append({"ok": False, "host": "", "href": ""})
    return out


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] == "corpus":
        seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
        count = int(args[args.index("--count") + 1]) if "--count" in args else 4000
        json.dump(corpus(seed, count), sys.stdout)
    elif args[0] == "tails":
        seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
        count = int(args[args.index("--count") + 1]) if "--count" in args else 4000
        json.dump(tails(seed, count), sys.stdout)
    elif args[0] == "parse":
        try:
            import ada_url  # noqa: F401
        except ImportError:
            print("PyPI package ada-url is missing: pip install ada-url", file=sys.stderr)
            sys.exit(3)
        json.dump(parse(json.load(sys.stdin)), sys.stdout)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
