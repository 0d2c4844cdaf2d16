/**
 * @module
 * `npm run evals:import`: moves evals onto a Tribunal deployment from another OpenAI-compatible `/v1/evals`
 * endpoint (another deployment, or a service still answering OpenAI's API) or from a JSON export (the output of
 * `evals.list` — `{ data: [...] }` — an array of `evals.retrieve` outputs, or one). Each eval is created with its
 * name, its `custom` data source config (the exported `schema`'s `item`, and whether it had a `sample`) and its
 * testing criteria, and `metadata.imported_from` = its source id; an eval already imported (that metadata found
 * on the target) is skipped, so a re-run creates nothing new; one with a `logs` or `stored_completions` config is
 * reported and the import exits 1 after the others. Runs and their data files are not moved.
 *
 * ```
 * npm run evals:import -- (--file export.json | --from URL [--from-key K]) [--to URL] [--token T]
 * ```
 */
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import type { CliIo, CliOptions, CliSpec, CliValues } from './args.js';
import { describeError, isMain, runCli, UsageError } from './args.js';

/** Command line of `npm run evals:import`. */
export const EVALS_IMPORT_CLI = {
  usage: `usage: npm run evals:import -- (--file export.json | --from URL) [options]

Creates each source eval on a Tribunal deployment (skipping those imported before: metadata.imported_from).

  --file FILE        a JSON export: evals.list's output ({"data": [...]}), an array of evals.retrieve outputs, or one
  --from URL         an OpenAI-compatible API to list the evals from (its /v1 base URL)
  --from-key K       its API key (default OPENAI_API_KEY)
  --to URL           the Tribunal deployment's /v1 base URL (default TRIBUNAL_URL + /v1, else http://127.0.0.1:8787/v1)
  --token T          Tribunal API key (default TRIBUNAL_API_KEY)
  -h, --help         this text`,
  options: {
    file: { type: 'string' },
    from: { type: 'string' },
    'from-key': { type: 'string' },
    to: { type: 'string' },
    token: { type: 'string' },
  },
} as const satisfies CliSpec<CliOptions>;

/** An eval as `evals.retrieve` answers it (the fields the import reads). */
export interface ExportedEval {
  id: string;
  name?: string;
  data_source_config?: { type?: string; schema?: { properties?: Record<string, unknown> } };
  testing_criteria?: unknown[];
  metadata?: Record<string, string> | null;
}

/** The metadata key that records an imported eval's source id. */
export const IMPORTED_FROM = 'imported_from';

/** The evals of an export (see the module note). @throws UsageError for anything else. */
export function exportedEvals(json: unknown): ExportedEval[] {
  const list = Array.isArray(json)
    ? json
    : typeof json === 'object' && json !== null && Array.isArray((json as { data?: unknown }).data)
      ? (json as { data: unknown[] }).data
      : [json];
  return list.map((e, i) => {
    if (typeof e !== 'object' || e === null || typeof (e as { id?: unknown }).id !== 'string')
      throw new UsageError(`--file: entry ${String(i)} is not an eval (no "id")`);
    return e as ExportedEval;
  });
}

/** The `evals.create` body of an exported eval. */
export function createBodyOf(e: ExportedEval): OpenAI.Evals.EvalCreateParams {
  const props = e.data_source_config?.schema?.properties ?? {};
  if (e.data_source_config?.type !== undefined && e.data_source_config.type !== 'custom')
    throw new Error(`eval ${e.id}: data_source_config "${e.data_source_config.type}" has no Tribunal equivalent`);
  return {
    name: e.name ?? e.id,
    data_source_config: {
      type: 'custom',
      item_schema: (props.item as Record<string, unknown> | undefined) ?? { type: 'object' },
      include_sample_schema: 'sample' in props,
    },
    testing_criteria: (e.testing_criteria ?? []) as OpenAI.Evals.EvalCreateParams['testing_criteria'],
    metadata: { ...(e.metadata ?? {}), [IMPORTED_FROM]: e.id },
  };
}

/** What one import did: the target ids of created evals, the source ids skipped (imported before), and refused. */
export interface ImportReport {
  created: { from: string; id: string }[];
  skipped: string[];
  /** Evals with no Tribunal equivalent (a `logs` or `stored_completions` config), with why. */
  refused: { from: string; why: string }[];
}

/** Imports `evals` into `target` (see the module note). */
export async function importEvals(evals: readonly ExportedEval[], target: OpenAI): Promise<ImportReport> {
  const done = new Set<string>();
  for await (const e of target.evals.list({ limit: 100 })) {
    const from = e.metadata?.[IMPORTED_FROM];
    if (from) done.add(from);
  }
  const report: ImportReport = { created: [], skipped: [], refused: [] };
  for (const e of evals) {
    if (done.has(e.id)) {
      report.skipped.push(e.id);
      continue;
    }
    let body: OpenAI.Evals.EvalCreateParams;
    try {
      body = createBodyOf(e);
    } catch (err) {
      report.refused.push({ from: e.id, why: describeError(err) });
      continue;
    }
    const made = await target.evals.create(body);
    done.add(e.id);
    report.created.push({ from: e.id, id: made.id });
  }
  return report;
}

/** Runs the import; resolves to the exit code. */
export async function evalsImportMain(
  values: CliValues<typeof EVALS_IMPORT_CLI.options>,
  io: Pick<CliIo, 'out' | 'err'>,
  env: NodeJS.ProcessEnv = process.env,
  fetchFn?: typeof fetch,
): Promise<number> {
  if ((values.file === undefined) === (values.from === undefined))
    throw new UsageError('give exactly one of --file and --from');
  const client = (baseURL: string, apiKey: string | undefined) =>
    new OpenAI({ baseURL, apiKey: apiKey ?? 'none', ...(fetchFn ? { fetch: fetchFn } : {}) });
  let evals: ExportedEval[];
  if (values.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(values.file, 'utf8');
    } catch (e) {
      throw new UsageError(`--file: cannot read ${values.file}: ${describeError(e)}`);
    }
    try {
      evals = exportedEvals(JSON.parse(text));
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`--file: ${values.file} is not valid JSON (${describeError(e)})`);
    }
  } else {
    evals = [];
    const source = client(values.from ?? '', values['from-key'] ?? env.OPENAI_API_KEY);
    for await (const e of source.evals.list({ limit: 100 })) evals.push(e);
  }
  const base = env.TRIBUNAL_URL ? `${env.TRIBUNAL_URL.replace(/\/+$/, '')}/v1` : 'http://127.0.0.1:8787/v1';
  const target = client(values.to ?? base, values.token ?? env.TRIBUNAL_API_KEY);
  const report = await importEvals(evals, target);
  for (const c of report.created) io.out(`created ${c.id} from ${c.from}\n`);
  for (const s of report.skipped) io.out(`skipped ${s} (imported before)\n`);
  for (const r of report.refused) io.err(`not imported: ${r.why}\n`);
  io.out(`${String(report.created.length)} created, ${String(report.skipped.length)} skipped\n`);
  return report.refused.length > 0 ? 1 : 0;
}

if (isMain(import.meta.url))
  await runCli(EVALS_IMPORT_CLI, (v) =>
    evalsImportMain(v, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }),
  );
