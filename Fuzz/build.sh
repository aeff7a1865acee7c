#!/usr/bin/env bash
# Builds every fuzz target into .build/fuzz/NAME with libFuzzer and AddressSanitizer.
#   Fuzz/build.sh [NAME...]      (default: every Fuzz/Targets/*.swift)
# The modules are compiled once each, whole-module, with swiftc directly: SwiftPM renames an
# executable's `main`, which clashes with libFuzzer's.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=.build/fuzz
mkdir -p "$out/obj" "$out/include/CTOML" "$out/include/CIDNA"
sanitize=(-sanitize=fuzzer,address)
cat > "$out/include/CTOML/module.modulemap" <<MAP
module CTOML { header "$root/Sources/CTOML/include/ctoml.h" export * }
MAP
cat > "$out/include/CIDNA/module.modulemap" <<MAP
module CIDNA { header "$root/Sources/CIDNA/include/cidna.h" export * }
MAP
dbus_cflags=$(pkg-config --cflags dbus-1)
includes=(-I "$out" -I "$out/include/CTOML" -I "$out/include/CIDNA" -I Sources/CSpoof/include -I Sources/CPCRE2 -I Sources/CDBus)
for flag in $dbus_cflags; do includes+=(-Xcc "$flag"); done

newer() { # true when $1 is missing or older than any of the rest
    local target=$1; shift
    [ ! -e "$target" ] && return 0
    for f in "$@"; do [ "$f" -nt "$target" ] && return 0; done
    return 1
}

if newer "$out/obj/ctoml.o" Sources/CTOML/ctoml.cpp Sources/CTOML/include/ctoml.h; then
    echo "fuzz: CTOML"
    clang++ -std=c++17 -O1 -g -fsanitize=address,fuzzer-no-link -DTOML_HEADER_ONLY=0 -DTOML_SHARED_LIB=1 \
        -I Sources/CTOML/include -c Sources/CTOML/ctoml.cpp -o "$out/obj/ctoml.o"
fi
if newer "$out/obj/cidna.o" Sources/CIDNA/cidna.c Sources/CIDNA/include/cidna.h; then
    echo "fuzz: CIDNA"
    clang -O1 -g -fsanitize=address,fuzzer-no-link -I Sources/CIDNA/include -c Sources/CIDNA/cidna.c -o "$out/obj/cidna.o"
fi
if newer "$out/obj/cspoof.o" Sources/CSpoof/cspoof.c Sources/CSpoof/include/cspoof.h; then
    echo "fuzz: CSpoof"
    clang -O1 -g -fsanitize=address,fuzzer-no-link -I Sources/CSpoof/include -c Sources/CSpoof/cspoof.c -o "$out/obj/cspoof.o"
fi
built=() # a module is rebuilt when one built before it (one it may import) changed
module() { # NAME SOURCE-DIR
    local name=$1 dir=$2
    if newer "$out/obj/$name.o" "$dir"/*.swift "${built[@]}"; then
        echo "fuzz: $name (whole-module, -sanitize=fuzzer,address)"
        swiftc "${sanitize[@]}" -parse-as-library -enable-testing -g -O -wmo -module-name "$name" -package-name openurld \
            -swift-version 5 "${includes[@]}" -emit-module -emit-module-path "$out/$name.swiftmodule" \
            -emit-object -o "$out/obj/$name.o" "$dir"/*.swift
    fi
    built+=("$out/obj/$name.o")
}
# Platform first: Patterns, Hygiene and LinkSafety import it (its lock), and it imports none of them.
for name in Platform JSON URLModel Patterns Hygiene LinkExtraction LinkSafety SiteLists RoutingCore Catalog TOML Templates ConfigLanguage Routing BrowserCompanion; do module "$name" "Sources/$name"; done
module DBus Sources/DBus

libs=(-ltomlplusplus -lpcre2-8 -licui18n -licuuc -ldbus-1 -lstdc++)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in Fuzz/Targets/*.swift; do targets+=("$(basename "$f" .swift)"); done
fi
for name in "${targets[@]}"; do
    src=Fuzz/Targets/$name.swift
    [ -f "$src" ] || { echo "fuzz: no target $name ($src)" >&2; exit 2; }
    objects=("$out"/obj/{Platform,JSON,URLModel,Patterns,Hygiene,LinkExtraction,LinkSafety,SiteLists,RoutingCore,Catalog,TOML,Templates,ConfigLanguage,Routing,BrowserCompanion,DBus}.o)
    # The handler's wire format is Embedded Swift in an executable target: its file is compiled in.
    extra=()
    if [ "$name" = wire ]; then extra=(Sources/openurl/WireFormat.swift); fi
    # The TOML reader's oracle (toml++ through the old bridge) is the tests' own file.
    if [ "$name" = toml ]; then extra=(Tests/RoutingTests/TOMLOracle.swift); fi
    if newer "$out/$name" "$src" "${extra[@]}" "${objects[@]}" Fuzz/Targets/Support/*.swift; then
        echo "fuzz: target $name"
        swiftc "${sanitize[@]}" -parse-as-library -g -O -swift-version 5 "${includes[@]}" -module-name "fuzz_$name" -package-name openurld \
            "$src" "${extra[@]}" Fuzz/Targets/Support/*.swift "${objects[@]}" "$out/obj/ctoml.o" "$out/obj/cidna.o" "$out/obj/cspoof.o" \
            "${libs[@]}" -use-ld=lld -o "$out/$name"
    fi
done
