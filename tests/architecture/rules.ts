/**
 * Where code goes, as data, and the rules that check an import graph against it (docs/architecture.md
 * draws the same picture). Pure: the test feeds it the real graph and small made-up ones, so each rule is
 * shown to fail when broken.
 *
 * A unit is a folder `src/<name>/`, `durable-objects/<name>/` or `queues/`; a file straight under `src/` is a
 * unit of its own (the composition). Layers, from the bottom:
 * - `engine`: the platform-free judge; imports nothing of ours outside itself (zod only);
 * - `base`: the logger, the typed config, the one backoff; imports only the base;
 * - `kernel` (`src/http/`): app factory, errors, middleware, OpenAPI helpers, shared responses; imports the
 *   base and the engine, no feature;
 * - `library` (`src/llm/`, `src/metrics/`): the provider wire, the agreement maths; the base and the engine;
 * - `feature`: one folder per resource or capability, owning its routes, schemas, service and D1 statements;
 *   another feature or a driver imports only its public files ({@link FEATURES});
 * - `driver` (`durable-objects/*`, `queues/`): thin, over features' public files and the ending's plan;
 * - `composition` (`src/index.ts`, `src/app.ts`, `src/ending-plan.ts`, `src/print-openapi.ts`): wires them up;
 * - `node` (`src/cli/`, `src/mock-llm/`, `src/datasets/`) and `web` (`src/web/`): never in the Worker.
 */
import type { ImportGraph } from './import-graph.js';

/** What a unit is. */
export type Kind = 'engine' | 'base' | 'kernel' | 'library' | 'feature' | 'driver' | 'composition' | 'node' | 'web';

/** Each feature and the files other features and drivers may import (its public module). */
export const FEATURES: Readonly<Record<string, readonly string[]>> = {
  'src/tenants': [
    'auth.ts',
    'ids.ts',
    'limits.ts',
    'quota.ts',
    'rows.ts',
    'schemas.ts',
    'scopes.ts',
    'token-bucket.ts',
    'usage-rollup.ts',
    'usage-routes.ts',
  ],
  'src/methods': ['method-config.ts', 'resolve-judge.ts'],
  'src/rubrics': ['check-rows.ts', 'resolve.ts', 'rows.ts', 'schemas.ts', 'service.ts', 'steps.ts', 'tag-rows.ts'],
  'src/budgets': [
    'aggregate.ts',
    'batch-shares.ts',
    'call-check.ts',
    'estimate.ts',
    'floor.ts',
    'meter.ts',
    'prompt-tokens.ts',
    'request-budget.ts',
    'synthetic.ts',
  ],
  'src/webhooks': [
    'copies.ts',
    'deliver.ts',
    'dispatch.ts',
    'event-docs.ts',
    'lane.ts',
    'outbox.ts',
    'retry-policy.ts',
    'schemas.ts',
    'sha256.ts',
    'signature.ts',
    'sql.ts',
    'url-checks.ts',
  ],
  'src/evaluations': [
    'admission.ts',
    'batch-open.ts',
    'certified.ts',
    'config-rows.ts',
    'content.ts',
    'ending.ts',
    'examples.ts',
    'final-write.ts',
    'held-start.ts',
    'held-types.ts',
    'insert-rows.ts',
    'job-rows.ts',
    'list.ts',
    'live-events.ts',
    'pipeline-error.ts',
    'read-pace.ts',
    'rows.ts',
    'rpc.ts',
    'rubric-steps.ts',
    'schemas.ts',
    'service.ts',
    'source.ts',
    'sse-hub.ts',
    'status.ts',
    'stub.ts',
    'task-groups.ts',
    'task-rows.ts',
    'transcript-rows.ts',
    'verdict-rows.ts',
    'views.ts',
  ],
  'src/estimates': ['service.ts'],
  'src/tiers': ['resolve.ts', 'schemas.ts'],
  'src/batches': [
    'body.ts',
    'pump.ts',
    'result-rows.ts',
    'rows.ts',
    'schemas.ts',
    'service.ts',
    'submission.ts',
    'submit.ts',
  ],
  'src/comparisons': ['answer-schemas.ts', 'schemas.ts', 'service.ts'],
  'src/meta-evaluations': ['service.ts'],
  'src/annotation-queues': ['labelled.ts', 'schemas.ts', 'service.ts'],
  'src/align': ['queue.ts'],
  'src/rubric-checks': [],
  'src/certify': [],
  'src/admin': ['spread-copies.ts'],
  'src/openai': ['completion.ts', 'errors.ts', 'idempotency.ts', 'list-page.ts', 'models.ts', 'schemas.ts'],
  'src/evals': ['run-queue.ts', 'run-retention.ts'],
  'src/files': ['service.ts'],
  'src/triggers': [],
  'src/retention': ['archive.ts', 'sweep.ts'],
  'src/archive': ['store.ts'],
  'src/provider-gate': ['aimd.ts', 'rpc.ts', 'window.ts', 'worker-gate.ts'],
  'src/client': ['index.ts', 'sse.ts'],
  'src/verdict-cache': ['hit.ts', 'plan.ts', 'rows.ts', 'schemas.ts'],
  'src/waves': ['coordinator.ts', 'item.ts', 'rpc.ts'],
  'src/traces': ['index-rows.ts', 'ingest.ts', 'links.ts', 'otlp-logs.ts', 'rpc.ts', 'span-schema.ts', 'store.ts'],
  'src/monitors': ['runner.ts'],
  'src/exports': ['copies.ts', 'delivery.ts'],
  'src/spread-copies': ['copies.ts'],
};

/** Every unit that is not a feature, by kind. */
export const UNITS: Readonly<Record<Exclude<Kind, 'feature'>, readonly string[]>> = {
  engine: ['src/engine'],
  base: ['src/log', 'src/config', 'src/backoff'],
  kernel: ['src/http'],
  library: ['src/llm', 'src/metrics'],
  driver: [
    'durable-objects/evaluation',
    'durable-objects/provider-gate',
    'durable-objects/rate-limiter',
    'durable-objects/webhook-lane',
    'durable-objects/wave-coordinator',
    'durable-objects/trace',
    'queues',
  ],
  composition: ['src/index.ts', 'src/app.ts', 'src/ending-plan.ts', 'src/print-openapi.ts'],
  node: ['src/cli', 'src/mock-llm', 'src/datasets'],
  web: ['src/web'],
};

/** The Worker's entry: what it reaches through value imports is Worker code. */
export const WORKER_ENTRY = 'src/index.ts';

/** Files that may re-export: the Worker entry (its Durable Object classes) and the client package's entry. */
export const RE_EXPORTERS: readonly string[] = ['src/index.ts', 'src/client/index.ts'];

/** Kinds each kind may import (besides its own unit), features only through their public files. */
const MAY_IMPORT: Readonly<Record<Kind, readonly Kind[]>> = {
  engine: [],
  base: ['base'],
  kernel: ['base', 'engine'],
  library: ['base', 'engine'],
  feature: ['base', 'engine', 'kernel', 'library', 'feature'],
  driver: ['base', 'engine', 'kernel', 'library', 'feature', 'composition'],
  composition: ['base', 'engine', 'kernel', 'library', 'feature', 'driver', 'composition'],
  node: ['base', 'engine', 'kernel', 'library', 'feature', 'driver', 'composition', 'node', 'web'],
  web: ['base', 'engine', 'kernel', 'library', 'feature', 'driver', 'composition', 'node'],
};

/** The unit a repository path belongs to, or null outside the source roots. */
export function unitOf(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] === 'queues') return 'queues';
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : file;
  if (parts[0] === 'durable-objects' && parts.length > 2) return `durable-objects/${parts[1]}`;
  return null;
}

/** The kind of a unit, or null for a unit the layout does not know. */
export function kindOf(unit: string): Kind | null {
  if (unit in FEATURES) return 'feature';
  for (const [kind, units] of Object.entries(UNITS)) if (units.includes(unit)) return kind as Kind;
  return null;
}

/** One broken rule. */
export interface Violation {
  rule: Rule;
  detail: string;
}

/** The rules, each checked by {@link check}. */
export type Rule =
  | 'unknown-unit'
  | 'folder-cycle'
  | 'layer'
  | 'engine-outside'
  | 'kernel-feature'
  | 'feature-internals'
  | 'worker-node'
  | 'browser-value'
  | 're-export';

/** Edges between units, for the cycle rule (type-only imports count: they tie the folders together too). */
function unitGraph(graph: ImportGraph): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [file, edges] of graph) {
    const from = unitOf(file);
    if (from === null) continue;
    if (!out.has(from)) out.set(from, new Set());
    for (const e of edges) {
      const to = unitOf(e.to);
      if (to !== null && to !== from) out.get(from)?.add(to);
    }
  }
  return out;
}

/** Strongly connected units (Tarjan): every group of more than one unit is a cycle. */
function unitCycles(units: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of units.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const v of [...units.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

/** Files reachable from `entry` through value imports (what ends up in its bundle). */
export function valueClosure(graph: ImportGraph, entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f) || !f.endsWith('.ts')) continue;
    seen.add(f);
    for (const e of graph.get(f) ?? []) if (!e.typeOnly) todo.push(e.to);
  }
  return seen;
}

/** Every rule the graph breaks (empty: the layout holds). */
export function check(graph: ImportGraph): Violation[] {
  const out: Violation[] = [];
  const add = (rule: Rule, detail: string) => out.push({ rule, detail });
  for (const [file, edges] of graph) {
    const from = unitOf(file);
    if (from === null) continue;
    const fromKind = kindOf(from);
    if (fromKind === null) {
      add('unknown-unit', `${from} (of ${file}) is in no layer: add it to tests/architecture/rules.ts`);
      continue;
    }
    for (const e of edges) {
      if (e.reExport && !RE_EXPORTERS.includes(file) && fromKind !== 'engine')
        add('re-export', `${file} re-exports ${e.to}${e.star ? ' (export *)' : ''}: import it where it is declared`);
      const to = unitOf(e.to);
      if (to === null || to === from) continue;
      const toKind = kindOf(to);
      if (toKind === null) continue;
      const what = `${file} -> ${e.to}`;
      if (fromKind === 'engine') {
        add('engine-outside', `${what}: the engine imports nothing of ours outside src/engine/`);
        continue;
      }
      if (fromKind === 'kernel' && toKind === 'feature') {
        add('kernel-feature', `${what}: the kernel imports no feature`);
        continue;
      }
      if (fromKind === 'web' && file.startsWith('src/web/app/') && !e.typeOnly) {
        add('browser-value', `${what}: the viewer imports only types from outside src/web/app/`);
        continue;
      }
      if (!MAY_IMPORT[fromKind].includes(toKind)) {
        add('layer', `${what}: a ${fromKind} may not import a ${toKind}`);
        continue;
      }
      if (toKind === 'feature' && (fromKind === 'feature' || fromKind === 'driver')) {
        const name = e.to.slice(to.length + 1);
        if (!(FEATURES[to] ?? []).includes(name))
          add('feature-internals', `${what}: ${name} is internal to ${to} (public: ${FEATURES[to]?.join(', ')})`);
      }
    }
  }
  for (const cycle of unitCycles(unitGraph(graph))) add('folder-cycle', cycle.join(' <-> '));
  for (const file of valueClosure(graph, WORKER_ENTRY)) {
    const unit = unitOf(file);
    const kind = unit === null ? null : kindOf(unit);
    if (kind === 'node' || kind === 'web') add('worker-node', `${file} (${kind} code) is in the Worker bundle`);
    for (const e of graph.get(file) ?? [])
      if (!e.typeOnly && e.to.startsWith('node:') && !WORKER_NODE_BUILTINS.includes(e.to))
        add('worker-node', `${file} imports ${e.to}, which the Worker does not have`);
  }
  return out;
}

/** Node built-ins the Worker may import (`nodejs_compat`): `node:crypto`'s synchronous SHA-256 (src/webhooks/sha256.ts). */
export const WORKER_NODE_BUILTINS: readonly string[] = ['node:crypto'];
