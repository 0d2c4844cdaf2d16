/**
 * The dependency direction of docs/architecture.md, pinned: the real import graph breaks no rule of
 * ./rules.ts, and each rule is shown to fail on a small made-up graph that breaks it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Edge } from './import-graph.js';
import { importsOf, readImportGraph, ROOT } from './import-graph.js';
import type { Rule } from './rules.js';
import { check, FEATURES, UNITS, valueClosure, WORKER_ENTRY } from './rules.js';

/** A made-up graph: each file with the files it imports (`type:` in front: a type-only import). */
function graphOf(files: Record<string, string[]>): Map<string, Edge[]> {
  return new Map(
    Object.entries(files).map(([file, imports]): [string, Edge[]] => [
      file,
      imports.map((to) => ({
        to: to.replace(/^type:/, ''),
        typeOnly: to.startsWith('type:'),
        reExport: false,
        star: false,
      })),
    ]),
  );
}

/** The rules a made-up graph breaks. */
const broken = (files: Record<string, string[]>): Rule[] => [...new Set(check(graphOf(files)).map((v) => v.rule))];

/** A Worker entry that reaches nothing, so the made-up graphs break only what they mean to. */
const ENTRY = { [WORKER_ENTRY]: [] };

describe('the dependency direction', () => {
  const graph = readImportGraph();

  it('holds for the sources: no folder cycle, each layer imports only below it, features only through public files', () => {
    // The walk sees the whole tree (so the rules below can fail) …
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('src/evaluations/service.ts')?.some((e) => e.to === 'src/tenants/quota.ts')).toBe(true);
    // … and nothing in it breaks a rule.
    expect(check(graph).map((v) => `${v.rule}: ${v.detail}`)).toEqual([]);
  });

  it('finds a folder cycle, a pair or a longer ring, type-only imports included', () => {
    expect(
      broken({ ...ENTRY, 'src/batches/a.ts': ['src/webhooks/b.ts'], 'src/webhooks/b.ts': ['type:src/batches/a.ts'] }),
    ).toContain('folder-cycle');
    expect(
      broken({
        ...ENTRY,
        'src/log/a.ts': ['src/config/b.ts'],
        'src/config/b.ts': ['src/backoff/c.ts'],
        'src/backoff/c.ts': ['src/log/a.ts'],
      }),
    ).toContain('folder-cycle');
    expect(
      broken({ ...ENTRY, 'src/batches/a.ts': ['src/batches/b.ts'], 'src/batches/b.ts': ['src/batches/a.ts'] }),
    ).toEqual([]);
  });

  it('finds the engine importing anything of ours outside it', () => {
    expect(broken({ ...ENTRY, 'src/engine/method.ts': ['type:src/budgets/schema.ts'] })).toEqual(['engine-outside']);
    expect(broken({ ...ENTRY, 'src/engine/method.ts': ['src/engine/call.ts', 'zod'] })).toEqual([]);
  });

  it('finds the kernel importing a feature', () => {
    expect(broken({ ...ENTRY, 'src/http/openapi.ts': ['src/methods/method-config.ts'] })).toEqual(['kernel-feature']);
    expect(broken({ ...ENTRY, 'src/http/errors.ts': ['src/log/log.ts', 'src/engine/protocol.ts'] })).toEqual([]);
  });

  it("finds a feature or a driver reaching into another feature's internals", () => {
    expect(broken({ ...ENTRY, 'src/batches/submit.ts': ['src/evaluations/list-query.ts'] })).toEqual([
      'feature-internals',
    ]);
    expect(broken({ ...ENTRY, 'queues/jobs.ts': ['src/batches/budget-claims.ts'] })).toEqual(['feature-internals']);
    expect(broken({ ...ENTRY, 'src/batches/submit.ts': ['src/evaluations/service.ts'] })).toEqual([]);
    // The composition wires everything up: it may import any file.
    expect(broken({ ...ENTRY, 'src/app.ts': ['src/batches/routes.ts'] })).toEqual([]);
  });

  it('finds a layer importing one above it, and a unit in no layer', () => {
    expect(broken({ ...ENTRY, 'src/log/log.ts': ['src/config/vars.ts'], 'src/config/vars.ts': [] })).toEqual([]);
    expect(broken({ ...ENTRY, 'src/config/vars.ts': ['src/llm/settings.ts'] })).toEqual(['layer']);
    expect(broken({ ...ENTRY, 'src/llm/client.ts': ['src/tenants/limits.ts'] })).toEqual(['layer']);
    expect(broken({ ...ENTRY, 'queues/jobs.ts': ['durable-objects/evaluation/index.ts'] })).toEqual(['layer']);
    expect(broken({ ...ENTRY, 'src/evaluations/service.ts': ['src/ending-plan.ts'] })).toEqual(['layer']);
    expect(broken({ ...ENTRY, 'src/misc/thing.ts': [] })).toEqual(['unknown-unit']);
  });

  it('finds Node-only code (or a Node built-in) reaching the Worker', () => {
    expect(broken({ [WORKER_ENTRY]: ['src/app.ts'], 'src/app.ts': ['src/mock-llm/handler.ts'] })).toContain(
      'worker-node',
    );
    expect(broken({ [WORKER_ENTRY]: ['src/llm/client.ts'], 'src/llm/client.ts': ['node:fs'] })).toEqual([
      'worker-node',
    ]);
    // Type-only imports are erased: no Node code reaches the bundle through them (the layers still refuse it).
    expect(broken({ [WORKER_ENTRY]: ['type:src/cli/args.ts'], 'src/cli/args.ts': ['node:fs'] })).toEqual(['layer']);
  });

  it('finds the viewer importing a value from outside it, and a re-export', () => {
    expect(broken({ ...ENTRY, 'src/web/app/main.ts': ['src/evaluations/status.ts'] })).toEqual(['browser-value']);
    expect(broken({ ...ENTRY, 'src/web/app/main.ts': ['type:src/evaluations/live-events.ts'] })).toEqual([]);
    const reExport = graphOf({ ...ENTRY, 'src/evaluations/stub.ts': [] });
    reExport.set('src/evaluations/stub.ts', importsOf('src/evaluations/stub.ts', "export * from './rpc.js';\n"));
    expect(check(reExport).map((v) => v.rule)).toEqual(['re-export']);
  });

  it('reads every import form: named, type-only, re-exported, side effect, dynamic', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../llm/b.js';",
      'import {\n  c,\n  d,\n} from "zod";',
      "export { e } from './e.js';",
      "export * from './f.js';",
      "import './g.js';",
      "const h = await import('./h.js');",
    ].join('\n');
    expect(importsOf('src/http/x.ts', text)).toEqual([
      { to: 'src/http/a.ts', typeOnly: false, reExport: false, star: false },
      { to: 'src/llm/b.ts', typeOnly: true, reExport: false, star: false },
      { to: 'zod', typeOnly: false, reExport: false, star: false },
      { to: 'src/http/e.ts', typeOnly: false, reExport: true, star: false },
      { to: 'src/http/f.ts', typeOnly: false, reExport: true, star: true },
      { to: 'src/http/g.ts', typeOnly: false, reExport: false, star: false },
      { to: 'src/http/h.ts', typeOnly: false, reExport: false, star: false },
    ]);
  });
});

describe('docs/architecture.md', () => {
  it('draws the layout the test enforces: every folder, and each feature with exactly its public files', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    for (const unit of Object.values(UNITS).flat()) expect(doc).toContain(unit.replace(/^src\//, ''));
    for (const [feature, files] of Object.entries(FEATURES)) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${feature}/\``));
      expect(row, `no row for ${feature}/ in the table of features`).toBeDefined();
      const listed = [...(row?.split('|').at(-2) ?? '').matchAll(/`([\w.-]+\.ts)`/g)].map((m) => m[1]).sort();
      expect(listed).toEqual([...files].sort());
    }
  });
});

describe('the Worker bundle', () => {
  it('holds the LLM client but no mock LLM module', () => {
    const files = [...valueClosure(readImportGraph(), WORKER_ENTRY)];
    // The walk reaches the LLM layer (so the check below can fail) …
    expect(files).toContain('src/llm/client.ts');
    expect(files).toContain('durable-objects/evaluation/index.ts');
    // … and nothing of the mock.
    expect(files.filter((f) => f.startsWith('src/mock-llm/'))).toEqual([]);
  });
});
