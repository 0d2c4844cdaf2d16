/**
 * The project's import graph, read from the sources: every `import` / `export … from` / `import()` of every
 * TypeScript file under src/, durable-objects/ and queues/, resolved to a repository path (relative
 * specifiers) or kept as a package name. A static read of the text, so it runs in a blink.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** One import of a file. */
export interface Edge {
  /** A repository path (`src/llm/client.ts`) for our own files, else the package name (`zod`, `node:fs`). */
  to: string;
  /** `import type` / `export type`: erased by the compiler, so it never reaches a bundle. */
  typeOnly: boolean;
  /** An `export … from`: a re-export. */
  reExport: boolean;
  /** `export * from`. */
  star: boolean;
}

/** Files and their imports, by repository path. */
export type ImportGraph = ReadonlyMap<string, readonly Edge[]>;

/** The roots whose files the graph holds. */
export const SOURCE_ROOTS = ['src', 'durable-objects', 'queues'] as const;

const STATIC =
  /^[ \t]*(import|export)\s+(type\s+)?(\*\s+from\s+|\*\s+as\s+\w+\s+from\s+|[^'";]*?\s+from\s+|)['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveSpecifier(file: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const base = resolve(dirname(join(ROOT, file)), spec.replace(/\.js$/, ''));
  const hit = [`${base}.ts`, join(base, 'index.ts'), base].find((c) => existsSync(c));
  return relative(ROOT, hit ?? `${base}.ts`);
}

/** The imports of one file's text. */
export function importsOf(file: string, text: string): Edge[] {
  const edges: Edge[] = [];
  for (const m of text.matchAll(STATIC)) {
    const [, keyword, type, clause, spec] = m;
    if (spec === undefined) continue;
    const reExport = keyword === 'export';
    edges.push({
      to: resolveSpecifier(file, spec),
      typeOnly: type !== undefined,
      reExport,
      star: reExport && (clause ?? '').trimStart().startsWith('*'),
    });
  }
  for (const m of text.matchAll(DYNAMIC)) {
    if (m[1] !== undefined)
      edges.push({ to: resolveSpecifier(file, m[1]), typeOnly: false, reExport: false, star: false });
  }
  return edges;
}

/** The graph of every TypeScript source file (declaration files aside). */
export function readImportGraph(): ImportGraph {
  const graph = new Map<string, Edge[]>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
        graph.set(path, importsOf(path, readFileSync(join(ROOT, path), 'utf8')));
    }
  };
  for (const root of SOURCE_ROOTS) walk(root);
  return graph;
}
