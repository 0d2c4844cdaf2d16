/**
 * The mock LLM is dev/test only: nothing the Worker entry imports (transitively, type-only imports aside,
 * since they are erased) lives under `src/llm/mock/`. A static walk of relative imports, so it runs in a
 * blink; `npx wrangler deploy --dry-run` shows the same in the bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** Relative value imports of a TypeScript file, resolved to files (`.js` specifiers name `.ts` sources). */
function valueImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  // `import type …` / `export type …` are erased by the compiler; everything else may reach the bundle.
  for (const m of src.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    const base = resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, ''));
    const hit = [`${base}.ts`, resolve(base, 'index.ts')].find((c) => existsSync(c));
    if (hit) out.push(hit);
  }
  for (const m of src.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
    const base = resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, ''));
    if (existsSync(`${base}.ts`)) out.push(`${base}.ts`);
  }
  return out;
}

/** Every file reachable from `entry` through value imports. */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const f = stack.pop();
    if (f === undefined || seen.has(f)) continue;
    seen.add(f);
    stack.push(...valueImports(f));
  }
  return seen;
}

describe('the Worker bundle', () => {
  it('holds the LLM client but no mock LLM module', () => {
    const files = [...reachable(resolve(ROOT, 'src/index.ts'))].map((f) => relative(ROOT, f));
    // The walk reaches the LLM layer (so the check below can fail) …
    expect(files).toContain('src/llm/client.ts');
    expect(files).toContain('durable-objects/evaluation/index.ts');
    // … and nothing of the mock.
    expect(files.filter((f) => f.startsWith('src/llm/mock/'))).toEqual([]);
  });
});
