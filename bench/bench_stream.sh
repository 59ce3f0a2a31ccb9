#!/bin/sh
# bench/bench_stream.sh — `mink run` streams: memory stays flat however large the batch.
#
# Usage: bench/bench_stream.sh MINK [COUNTS...]   (default counts: 1e5 1e6 1e7)
# Pipes `mink sample` (binary, generated chunk by chunk) into `mink run` (binary out, to
# /dev/null), so neither side ever holds the whole batch, and prints, per batch size, the time,
# pairs per second and the peak resident memory `mink run` reports for itself.
set -eu
mink=${1:?usage: bench_stream.sh MINK [COUNTS...]}
shift
[ $# -gt 0 ] || set -- 1e5 1e6 1e7
printf '%12s %10s %14s %16s %14s\n' pairs seconds pairs/s "peak MiB (run)" "input MiB"
for n in "$@"; do
  line=$("$mink" sample --count "$n" --format binary | "$mink" run --format binary 2>&1 >/dev/null | tail -n 1)
  pairs=$(echo "$line" | sed -n 's/^mink run: \([0-9]*\) pairs.*/\1/p')
  secs=$(echo "$line" | sed -n 's/.*; \([0-9.]*\) s, \([0-9]*\) pairs\/s.*/\1/p')
  rate=$(echo "$line" | sed -n 's/.* s, \([0-9]*\) pairs\/s.*/\1/p')
  peak=$(echo "$line" | sed -n 's/.*peak memory \([0-9.]*\) MiB.*/\1/p')
  [ -n "$pairs" ] || { echo "bench_stream: mink run failed: $line" >&2; exit 1; }
  printf '%12s %10s %14s %16s %14.0f\n' "$pairs" "$secs" "$rate" "$peak" "$(awk -v n="$pairs" 'BEGIN { print n * 328 / 1048576 }')"
done
