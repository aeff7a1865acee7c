#!/usr/bin/env bash
# Makes Sources/openurld/openurld.order, the daemon's hot functions, which the release link puts
# first in the text (see Package.swift): every function of openurld that callgrind sees run in
# a start and first decision, the links bench-footprint's memory figure routes (a launch, a
# discard, a ClearURLs clean, a mailto) and a burst of 4,000 clicks from 1 and 10 clients.
#   make order-file   (a release build, bench-footprint, then this script)
# Takes ~10 minutes (valgrind). Run it again when the daemon's code has moved a lot: names it no
# longer has are skipped at link time, so a stale list only orders less.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind objcopy python3; do
    command -v "$tool" >/dev/null || { echo "order-file: $tool is missing (apt-get install -y valgrind binutils python3)" >&2; exit 2; }
done
bench=.build/release/bench-footprint
[ -x "$bench" ] && [ -x .build/release/openurld ] || { echo "order-file: build first: make order-file does" >&2; exit 2; }
work=$(mktemp -d)
# ORDER_KEEP=1 keeps the callgrind profiles (their folder is printed) to see what ran.
if [ "${ORDER_KEEP:-}" = 1 ]; then echo "order-file: profiles kept in $work"; else trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work/real"
cp .build/release/openurld "$work/real/openurld"
# valgrind stumbles over the debug information Swift emits; the symbols stay.
objcopy --strip-debug "$work/real/openurld"
cp .build/release/openurl "$work/openurl"
cat > "$work/openurld" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --demangle=no --callgrind-out-file=$work/cg.%p $work/real/openurld "\$@"
EOF
chmod +x "$work/openurld"
"$bench" --products "$work" --startup-only --startup-runs 1
"$bench" --products "$work" --memory-only
"$bench" --products "$work" --bursts 1
python3 - "$work" Sources/openurld/openurld.order <<'PY'
import glob, re, sys
work, out = sys.argv[1], sys.argv[2]
names = set()
for path in glob.glob(work + "/cg.*"):
    # callgrind names each object and function once in full, "(id) name", then by "(id)".
    objects, functions, current = {}, {}, None
    def name(text, table):
        match = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if not match:
            return text
        if match.group(2) is not None:
            table[match.group(1)] = match.group(2)
        return table.get(match.group(1))
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("ob="):
            current = name(line[3:], objects)
        elif line.startswith("cob="):
            name(line[4:], objects)
        elif line.startswith("cfn="):
            name(line[4:], functions)
        elif line.startswith("fn="):
            function = name(line[3:], functions)
            if current and current.endswith("/real/openurld") and function and not function.startswith("0x"):
                names.add(re.sub(r"'\d+$", "", function))  # callgrind's mark for a recursive call
with open(out, "w") as file:
    file.write("".join(sorted(name + "\n" for name in names)))
print(f"order-file: {len(names)} functions in {out}")
PY
