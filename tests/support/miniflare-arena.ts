/**
 * A test and CI speed fix for Miniflare's start, loaded into every Node process of the e2e run (its
 * global setup writes {@link ARENA_HOOK_SOURCE} beside the shared bundle and adds `--require <it>` to
 * `NODE_OPTIONS`). Miniflare turns the workerd config, with the Worker's ~5 MB bundle inline, into Cap'n
 * Proto with capnp-es's single-segment arena, which grows by the bytes asked for (at least 4 KB) and copies
 * the whole arena each time: quadratic, about 1 CPU-s of serialization per stack start here (about 2 CPU-s of
 * a whole start, with the processes around it), more at load (an open upstream
 * bug, cloudflare/workers-sdk#15271; the code is not exported). The hook rewrites that one line as Miniflare's
 * module is compiled so the arena at least doubles. The bytes written are the same: a segment tracks the
 * bytes it uses apart from its buffer's length, and only those are serialized (tests/cli/miniflare-arena.test.ts
 * compares them). Nothing on disk changes; where the line is not found (another Miniflare) the hook changes
 * nothing and says so through {@link ARENA_STATE}. Node only.
 */

/** The growth line of capnp-es's `SingleSegmentArena.allocate` as bundled in miniflare 4. */
export const ARENA_GROWTH = 's.buffer = new ArrayBuffer(srcBuffer.byteLength + minSize);';

/** The same growth, at least doubling the arena. */
export const ARENA_DOUBLING =
  's.buffer = new ArrayBuffer(srcBuffer.byteLength + Math.max(minSize, srcBuffer.byteLength));';

/** The global the hook sets in a process that loaded Miniflare: `'patched'`, or `'skipped'` when the line was not there. */
export const ARENA_STATE = 'tribunal.miniflareArena';

/** Miniflare's bundled module, the one file the hook rewrites. */
const MINIFLARE_MODULE = '/miniflare/dist/src/index.js';

/**
 * `source` with the arena's growth doubled, or undefined when `source` does not hold the growth line exactly
 * once (another Miniflare: left as it is).
 */
export function patchArena(source: string): string | undefined {
  const at = source.indexOf(ARENA_GROWTH);
  if (at === -1 || source.indexOf(ARENA_GROWTH, at + 1) !== -1) return undefined;
  return source.slice(0, at) + ARENA_DOUBLING + source.slice(at + ARENA_GROWTH.length);
}

/**
 * The hook as a CommonJS module for `node --require`: Miniflare is CommonJS, and Node compiles it through
 * `Module.prototype._compile` whether it is required or imported. The same rewrite as {@link patchArena}.
 */
export const ARENA_HOOK_SOURCE = `'use strict';
// Written by tests/support/miniflare-arena.ts (the e2e run's global setup): see there.
const Module = require('node:module');
const compile = Module.prototype._compile;
const growth = ${JSON.stringify(ARENA_GROWTH)};
const doubling = ${JSON.stringify(ARENA_DOUBLING)};
Module.prototype._compile = function (content, filename) {
  if (typeof filename === 'string' && filename.replaceAll('\\\\', '/').endsWith(${JSON.stringify(MINIFLARE_MODULE)})) {
    const at = content.indexOf(growth);
    const once = at !== -1 && content.indexOf(growth, at + 1) === -1;
    if (once) content = content.slice(0, at) + doubling + content.slice(at + growth.length);
    globalThis[Symbol.for(${JSON.stringify(ARENA_STATE)})] = once ? 'patched' : 'skipped';
  }
  return compile.call(this, content, filename);
};
`;
