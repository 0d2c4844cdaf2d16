/**
 * @module
 * `npm run meta-eval -- --replay <run.json> [--preset P] [--config overrides.json] [--out FILE]`: re-aggregates
 * a finished meta-evaluation run under another preset or config, without LLM calls. The run
 * file is the JSON `npm run meta-eval` writes; it holds every item's transcript. The dataset is reloaded by the
 * name (and aspect) the run used, so the human labels and tasks are the run's.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../engine/registry.js';
import { loadDatasetByName } from '../datasets/loaders.js';
import { reportOptionsFor } from '../metrics/headline.js';
import { cascadeMarkdown } from '../metrics/cascade.js';
import { toMarkdown } from '../metrics/agreement-markdown.js';
import type { DatasetReplay } from '../metrics/dataset-replay.js';
import { replayDataset } from '../metrics/dataset-replay.js';

/** The part of a meta-eval run file a replay reads. */
const RunFileSchema = z.object({
  options: z.object({ dataset: z.string(), preset: z.string(), aspect: z.string().optional() }),
  results: z.array(
    z.object({
      id: z.string(),
      transcript: z.array(z.object({ callId: z.string(), model: z.string(), content: z.string() })).optional(),
    }),
  ),
});

/** Options of {@link runMetaReplay}. */
export interface MetaReplayOptions {
  /** The run file `npm run meta-eval` wrote. */
  from: string;
  /** Preset to replay under; default the run's. */
  preset?: string;
  /** Config overrides merged over the preset. */
  config?: Record<string, unknown>;
  /** Where the JSON goes; default next to the run file, `<run>.replay-<preset>-<time>.json`. */
  out?: string;
}

/** A replay's outcome, its markdown and where its JSON went. */
export interface MetaReplayResult {
  replay: DatasetReplay;
  markdown: string;
  outFile: string;
}

/** Replays a run file and writes the JSON report. */
export function runMetaReplay(options: MetaReplayOptions): MetaReplayResult {
  const parsed = RunFileSchema.safeParse(JSON.parse(readFileSync(options.from, 'utf8')));
  if (!parsed.success) throw new Error(`${options.from} is not a meta-eval run file: ${formatIssues(parsed.error)}`);
  const run = parsed.data;
  const preset = options.preset ?? run.options.preset;
  const ids = new Set(run.results.map((r) => r.id));
  const items = loadDatasetByName(
    run.options.dataset,
    run.options.aspect !== undefined ? { aspect: run.options.aspect } : {},
  ).filter((i) => ids.has(i.id));
  const replies = new Map(run.results.flatMap((r) => (r.transcript ? [[r.id, r.transcript] as const] : [])));
  const replay = replayDataset(items, replies, {
    preset,
    ...(options.config ? { config: options.config } : {}),
    report: reportOptionsFor(run.options.dataset),
  });
  const t = replay.totals;
  const markdown = [
    `## Replay: ${preset}${options.config ? ` + ${JSON.stringify(options.config)}` : ''} on the transcripts of ${options.from}`,
    '',
    toMarkdown(replay.report),
    '',
    `items ${t.items} · replayed ${t.succeeded} · incomplete ${t.incomplete} · without transcript ${t.noTranscript} · failed ${t.failed} · replies applied ${t.repliesApplied} · LLM calls 0`,
    ...(replay.cascade ? ['', cascadeMarkdown(replay.cascade)] : []),
    ...(t.incomplete > 0
      ? [
          '',
          `The config asks for replies the run did not record (first item: ${replay.items.find((i) => i.missing)?.missing?.join(', ') ?? ''}).`,
        ]
      : []),
  ].join('\n');
  const outFile =
    options.out ??
    join(
      dirname(options.from),
      `${options.from.replace(/^.*\//, '').replace(/\.json$/, '')}.replay-${preset}-${Date.now()}.json`,
    );
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(
    outFile,
    JSON.stringify(
      {
        replayOf: options.from,
        preset,
        config: options.config ?? null,
        totals: t,
        report: replay.report,
        results: replay.items,
      },
      null,
      2,
    ),
  );
  return { replay, markdown, outFile };
}
