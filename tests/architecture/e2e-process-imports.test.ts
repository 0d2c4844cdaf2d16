/**
 * An e2e test process starts its stacks as child processes (src/cli/local-stack.ts) and never runs a Miniflare
 * or wrangler itself, so what its files load when imported must not reach either package: Miniflare's 3.8 MB
 * CommonJS file with undici cost 0.5-1 CPU-s in each of the 13 e2e test processes that imported
 * tests/support/seed-state.ts while it also held the seed's migrating (now in tests/support/worker-prepare.ts).
 * A lazy `import()` (wrangler in src/cli/worker-bundle.ts, for the one test that reloads a stack) is not followed:
 * it loads only when called. A static read of the text, as ./import-graph.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, ROOT } from './import-graph.js';

/** Packages an e2e test process must not load at import. */
const HEAVY = ['miniflare', 'wrangler'];

/** A CommonJS load at module level, `require('x')` or `createRequire(import.meta.url)('x')` (miniflare's way in). */
const REQUIRE = /\b(?:require|createRequire\([^)]*\))\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g;

/** The e2e project's test files and setup files (tests/vitest.e2e.config.ts). */
function entries(): string[] {
  const tests = ['tests/cli/e2e', 'tests/client/e2e'].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `${dir}/${f}`),
  );
  return [...tests, 'tests/support/worker-ready.ts', 'tests/support/contract-fetch.ts'];
}

/** The packages `entry` reaches through static value imports, each with the file that imports it. */
function staticPackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const todo = [entry];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (seen.has(file) || !existsSync(join(ROOT, file))) continue;
    seen.add(file);
    // `import(` renamed: a dynamic import is not followed.
    const text = readFileSync(join(ROOT, file), 'utf8').replace(/\bimport\(/g, 'later(');
    for (const edge of importsOf(file, text)) {
      if (edge.typeOnly) continue;
      if (edge.to.endsWith('.ts')) todo.push(edge.to);
      else if (!packages.has(edge.to)) packages.set(edge.to, file);
    }
    for (const m of text.matchAll(REQUIRE)) if (m[1] && !packages.has(m[1])) packages.set(m[1], file);
  }
  return packages;
}

describe('an e2e test process', () => {
  it('loads neither Miniflare nor wrangler when its files are imported', () => {
    const found = entries().flatMap((entry) =>
      [...staticPackages(entry)]
        .filter(([pkg]) => HEAVY.some((h) => pkg === h || pkg.startsWith(`${h}/`)))
        .map(([pkg, file]) => `${entry} → ${file} imports ${pkg}`),
    );
    expect(entries().length).toBeGreaterThan(10);
    expect(found).toEqual([]);
  });
});
