#!/usr/bin/env python3
"""Deterministic ClearURLs corpus, run through an independent implementation (url-unwrap).

Used by Tests/RoutingTests/ClearURLsCorpusTests.swift and Benchmarks/Hygiene. Prints one JSON
object: {"corpus": [{"url": ..., "out": ...}, ...], "median_us": ...}. Only argv, no shell.

    python3 clearurls_corpus.py --rules data.min.json [--count 3000] [--seed 1] [--timing]
"""
import argparse
import json
import random
import re
import statistics
import sys
import time
from urllib.parse import quote

try:
    from url_unwrap import Providers, unwrap
except ImportError:
    print("url-unwrap is not installed: pip install url-unwrap", file=sys.stderr)
    sys.exit(3)

NEUTRAL = ["id", "q", "page", "k", "lang", "v", "item", "sort"]
VALUES = ["1", "abc", "a%20b", "a+b", "%E2%82%AC", "%zz", "", "x%26y", "https%3A%2F%2Fe.com%2F", "A-Z_09"]
GLOBAL = ["utm_source", "utm_medium", "utm_campaign", "fbclid", "gclid", "yclid", "mc_eid",
          "_hsenc", "__hstc", "mkt_tok", "wickedid", "ga_source", "fb_ref", "mtm_source", "UTM_Term"]
PATHS = ["/", "/a/b", "/dp/B0XYZ", "/watch", "/s", "/p/123/ref=abc_1", "/index.html", "/l.php",
         "/url", "/redirect", "/gp/product/B0/ref=as_li_ss_tl"]
SUBDOMAINS = ["", "www.", "m.", "shop."]
LITERAL_RULE = re.compile(r"[A-Za-z0-9_\-.]+")
HOST_WORD = re.compile(r"\*\?((?:[a-z0-9-]|\\\.)+)(\(\?:\\\.\[a-z\]\{2,\}\)\{1,\})?")
WRAPPERS = [
    "https://www.google.com/url?sa=t&url={enc}&usg=x",
    "https://www.google.de/url?q={enc}",
    "https://l.facebook.com/l.php?u={enc}&h=AT",
    "https://www.youtube.com/redirect?event=x&q={enc}",
    "https://steamcommunity.com/linkfilter/?url={enc}",
    "https://kevinroebert.gitlab.io/ClearUrls/void/index.html?url={enc}",
    "https://www.google.com/url?q={raw}",
    "https://www.google.com/url?q={enc2}",
]


def hosts(providers):
    out = []
    for name, body in providers.items():
        match = HOST_WORD.search(body.get("urlPattern", ""))
        if not match:
            continue
        word = match.group(1).replace("\\.", ".")
        out.append((name, word + (".com" if match.group(2) or "." not in word else "")))
    return out


def literal_rules(body):
    return [r for r in body.get("rules", []) + body.get("referralMarketing", []) if LITERAL_RULE.fullmatch(r)]


def make_url(rng, providers, host_list):
    name, host = rng.choice(host_list)
    body = providers[name]
    params = []
    rules = literal_rules(body)
    for _ in range(rng.randint(0, 6)):
        roll = rng.random()
        if roll < 0.3 and rules:
            key = rng.choice(rules)
        elif roll < 0.55:
            key = rng.choice(GLOBAL)
        else:
            key = rng.choice(NEUTRAL)
        params.append(key + "=" + rng.choice(VALUES))
    if params and rng.random() < 0.15:
        params.append(params[0])  # a repeated parameter
    url = rng.choice(["https://", "http://"]) + rng.choice(SUBDOMAINS) + host + rng.choice(PATHS)
    if params:
        url += "?" + "&".join(params)
    roll = rng.random()
    if roll < 0.1:
        url += "#section"
    elif roll < 0.2:
        url += "#k=v&" + rng.choice(GLOBAL) + "=1"
    return url


def corpus(providers, count, seed):
    rng = random.Random(seed)
    host_list = hosts(providers)
    urls = []
    while len(urls) < count:
        url = make_url(rng, providers, host_list)
        if rng.random() < 0.15:
            template = rng.choice(WRAPPERS)
            url = template.format(enc=quote(url, safe=""), raw=url, enc2=quote(quote(url, safe=""), safe=""))
        urls.append(url)
    return urls


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", required=True)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timing", action="store_true", help="time each URL and report the median")
    args = parser.parse_args()
    with open(args.rules, "rb") as handle:
        raw = json.load(handle)
    providers = Providers.from_file(args.rules)
    urls = corpus(raw["providers"], args.count, args.seed)
    results = []
    timings = []
    for url in urls:
        start = time.perf_counter()
        out = unwrap(url, providers)
        timings.append(time.perf_counter() - start)
        results.append({"url": url, "out": out})
    report = {"corpus": results}
    if args.timing:
        report["median_us"] = statistics.median(timings) * 1e6
    json.dump(report, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
