#!/bin/bash
# Regenerates the chooser screenshots in this directory: a private Xvfb (no window manager),
# GTK's default light theme (Adwaita), `import` (ImageMagick) of the window alone.
#   docs/screenshots/make-screenshots.sh [path/to/openurl-chooser]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
chooser=${1:-$here/../../.build/release/openurl-chooser}
display=:$((70 + $$ % 20))
Xvfb "$display" -screen 0 1280x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
sleep 1
export DISPLAY=$display GTK_THEME=Adwaita

shoot() {
    local name=$1; shift
    "$chooser" "$@" >/dev/null &
    local pid=$! window=
    for _ in $(seq 100); do
        window=$(xdotool search --onlyvisible --name '^Open link' 2>/dev/null | head -n 1 || true)
        [ -n "$window" ] && break
        sleep 0.05
    done
    sleep 0.5  # let the first frame be drawn
    import -window "$window" "$here/$name.png"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

tab=$'\t'
browsers=(--choice "firefox.desktop${tab}Firefox${tab}firefox" --choice "chromium.desktop${tab}Chromium${tab}chromium"
          --choice "work${tab}Work${tab}web-browser" --choice "copy${tab}Copy link${tab}edit-copy"
          --choice "discard${tab}Discard${tab}user-trash")
shoot chooser-link --url 'https://www.example.co.uk/account/settings' \
    --original 'https://www.google.com/url?q=https://www.example.co.uk/account/settings&utm_source=newsletter' \
    --opener slack "${browsers[@]}"
shoot chooser-long-url \
    --url 'http://tracking.shop.example.com/products/category/outdoor/tents/ultralight-two-person-tent-with-vestibule-and-footprint?colour=forest-green&size=2p&ref=homepage-carousel-slot-3&session=8f14e45fceea167a5a36dedd4bea2543' \
    "${browsers[@]}"
shoot chooser-mailto \
    --url 'mailto:alice@corp.example.com?cc=bob@example.org&subject=Quarterly%20review&body=Hi%20Alice%2C%0A%0AHere%20are%20the%20figures%20for%20the%20quarterly%20review.%20Could%20you%20look%20at%20them%20before%20Thursday%3F%0A%0AThanks%2C%0ABob' \
    --choice "thunderbird.desktop${tab}Thunderbird${tab}thunderbird" --choice "gmail${tab}Gmail${tab}mail-send" \
    --choice "outlook${tab}Outlook${tab}mail-send" --choice "copy${tab}Copy address${tab}edit-copy"
shoot chooser-homograph --url 'https://xn--pple-43d.com/signin' "${browsers[@]}"
