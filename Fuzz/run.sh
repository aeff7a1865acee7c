#!/usr/bin/env bash
# Runs fuzz targets from their seed corpus for FUZZ_SECONDS each (default 60).
#   Fuzz/run.sh [NAME...]
# New inputs go to .build/fuzz/corpus/NAME (the seeds in Fuzz/Corpus/NAME are never written);
# a finding is written as .build/fuzz/findings/NAME-crash-* and fails the run. Replay one with
#   .build/fuzz/NAME FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
out=.build/fuzz
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in Fuzz/Targets/*.swift; do targets+=("$(basename "$f" .swift)"); done
fi
# Swift's backtracer reads ASan's shadow gap and turns every finding into a bogus
# "unknown-crash on address 0x000200000000" (and leaves a swift-backtrace process behind).
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/lsan.supp}
mkdir -p "$out/findings"
status=0
for name in "${targets[@]}"; do
    mkdir -p "$out/corpus/$name"
    log=$out/$name.log
    echo "fuzz: $name for ${seconds}s"
    if ! "$out/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/findings/$name-" "$out/corpus/$name" "Fuzz/Corpus/$name" >"$log" 2>&1; then
        echo "fuzz: $name FOUND something; see $log and $out/findings/" >&2
        tail -n 30 "$log" >&2
        status=1
    fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*' || true)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*' || true)
    echo "fuzz: $name: ${execs:-?} executions, coverage ${cov:-?} edges, ${ft:-?} features"
done
exit $status
