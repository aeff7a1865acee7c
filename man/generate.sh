#!/bin/sh
# Builds the man pages: splices the parts generated from openurl's command table and the
# config's schema table (openurl-tool __generate man-...) into man/*.scd, then runs scdoc.
#   man/generate.sh TOOL OUTDIR
set -eu
tool=$1
out=$2
here=$(dirname "$0")
command -v scdoc >/dev/null || { echo "man/generate.sh: scdoc is missing (Debian: apt-get install scdoc)" >&2; exit 1; }
mkdir -p "$out"
"$tool" __generate man-synopsis > "$out/synopsis.scd"
"$tool" __generate man-commands > "$out/commands.scd"
"$tool" __generate man-config > "$out/keys.scd"
splice() { # TEMPLATE PLACEHOLDER FILE...
    template=$1; shift
    awk -v pairs="$*" 'BEGIN { n = split(pairs, p, " "); for (i = 1; i < n; i += 2) file[p[i]] = p[i + 1] }
        ($0 in file) { while ((getline line < file[$0]) > 0) print line; close(file[$0]); next }
        { print }' "$template"
}
splice "$here/openurl.1.scd" @SYNOPSIS@ "$out/synopsis.scd" @COMMANDS@ "$out/commands.scd" | scdoc > "$out/openurl.1"
scdoc < "$here/openurld.1.scd" > "$out/openurld.1"
scdoc < "$here/openurl-chooser.1.scd" > "$out/openurl-chooser.1"
scdoc < "$here/openurl-native-host.1.scd" > "$out/openurl-native-host.1"
scdoc < "$here/openurl-settings.1.scd" > "$out/openurl-settings.1"
splice "$here/openurld.toml.5.scd" @KEYS@ "$out/keys.scd" | scdoc > "$out/openurld.toml.5"
rm -f "$out/synopsis.scd" "$out/commands.scd" "$out/keys.scd"
