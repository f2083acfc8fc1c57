#!/bin/bash
# Instructions per non-streamed request, counted rather than timed (timings on a shared machine
# drift by ±30%): `bash bench/instructions.sh [variant ...]` (variants: bench/loop-variants.mjs;
# default: all five). Each count is valgrind's callgrind over `node --single-threaded` (no
# background compiler or GC threads, whose timing otherwise moves counts by up to 50%), a fresh
# process doing 1,300 requests minus one doing 300, divided by 1,000, against bench/server.mjs.
# Needs valgrind (`apt-get install valgrind`) and `npm run build`; about a minute per variant.
# NODE_FLAGS adds node flags for an attribution run, not for the contract's count: under
# `NODE_FLAGS=--predictable` (V8's deterministic mode) two counts of the same code were within
# 1.1%, where plain counts of the same code moved by up to 10% between sittings (bench/README.md).
# WARMUP=4000 (default 300) starts the counted window after V8 has compiled the request path:
# the steady state, about 3.5 times as long to run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(raw signal+timer signal+timer+idempotency-key as-sent modelgate)
portfile="$(mktemp)"
node "$here/server.mjs" > "$portfile" &
server=$!
trap 'kill $server' EXIT
until [ -s "$portfile" ]; do sleep 0.1; done
port=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).port)' "$portfile")
count() { N=$2 valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded ${NODE_FLAGS:-} "$here/loop-variants.mjs" "$port" "$1" 2>&1 | awk '/Collected/ {print $4}'; }
for variant in "${variants[@]}"; do
  small=$(count "$variant" 300)
  large=$(count "$variant" 1300)
  echo "$variant: $(( (large - small) / 1000 )) instructions per request"
done
