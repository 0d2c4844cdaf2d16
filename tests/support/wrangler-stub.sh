#!/bin/sh
# A stand-in for wrangler (TRIBUNAL_WRANGLER, src/cli/worker-bundle.ts) that never finishes: it starts a child
# that ignores SIGTERM, as wrangler starts esbuild, then writes "<its pid> <the child's pid>" to the file
# TRIBUNAL_STUB_PIDS names (whole, through a rename) and waits.
sh -c 'trap "" TERM; exec sleep 600' &
echo "$$ $!" > "$TRIBUNAL_STUB_PIDS.tmp"
mv "$TRIBUNAL_STUB_PIDS.tmp" "$TRIBUNAL_STUB_PIDS"
wait
