/**
 * The files a `POST /v1/evaluations` → verdict crosses, counted statically: the import closure of the
 * route module (src/evaluations/routes.ts) and the evaluation's Durable Object
 * (durable-objects/evaluation/index.ts), every relative import followed, the engine (src/engine/: the
 * methods themselves) left out. Prints the count with every import, then with value imports only (what
 * runs; `import type` is erased), and the folders they are in.
 *
 * Usage: `node --import tsx bench/files-crossed.ts [entry.ts …]` (other entries: another path's count).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const ENTRIES =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : ['src/evaluations/routes.ts', 'durable-objects/evaluation/index.ts'];
const IMPORT = /(?:import|export)\s+(type\s+)?[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(join(ROOT, from)), spec.replace(/\.js$/, ''));
  const hit = [`${base}.ts`, join(base, 'index.ts')].find((c) => existsSync(c));
  return hit === undefined ? null : relative(ROOT, hit);
}

function closure(valuesOnly: boolean): string[] {
  const seen = new Set<string>();
  const todo = [...ENTRIES];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    for (const m of readFileSync(join(ROOT, f), 'utf8').matchAll(IMPORT)) {
      if (valuesOnly && m[1] !== undefined) continue;
      const to = resolveImport(f, m[2] ?? '');
      if (to !== null) todo.push(to);
    }
  }
  return [...seen].filter((f) => !f.startsWith('src/engine/')).sort();
}

const folderOf = (f: string): string => {
  const parts = f.split('/');
  if (parts[0] === 'queues') return 'queues';
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : f;
};

for (const [what, files] of [
  ['every import', closure(false)],
  ['value imports', closure(true)],
] as const) {
  const folders = [...new Set(files.map(folderOf))].sort();
  console.log(`${what}: ${files.length} files in ${folders.length} folders (src/engine/ left out)`);
  console.log(`  ${folders.join(' ')}`);
}
