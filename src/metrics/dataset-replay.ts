/**
 * @module
 * Meta-evaluation replay: a whole dataset's stored transcripts re-aggregated under another
 * preset or config, without any LLM call, and scored against the human labels like a live run — so a user
 * can compare, say, ChatEval's `sum-scores` with `per-agent-majority`, or a strict reader with a lenient
 * one, on the same replies. Runtime-neutral; the CLI reads and writes the files (`src/cli/meta-replay.ts`).
 *
 * An item whose config asks for a reply its transcript does not hold (another strategy, more turns, a re-ask
 * the new reader triggers) is `incomplete`: listed with the missing call ids and counted as missing in the
 * report, never guessed.
 */
import { createEvaluation } from '../engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../engine/registry.js';
import type { StoredReply } from '../engine/replay.js';
import { replayReplies } from '../engine/replay.js';
import type { Verdict } from '../engine/verdict.js';
import type { CascadeReport } from './cascade.js';
import { cascadeReportOfJudged } from './cascade.js';
import type { LabelledItem } from './labelled.js';
import type { AgreementReport, ReportOptions } from './agreement.js';
import { reportOfJudged } from './agreement.js';

/** What to replay under. */
export interface ReplaySettings {
  /** Preset id; its config is the base. */
  preset?: string;
  /** Config overrides merged over the preset (as the API's `config`). */
  config?: Record<string, unknown>;
  /** Report options (see `headline.ts` for the built-in datasets' figures). */
  report?: ReportOptions;
}

/** One item's replay. */
export interface ReplayedItem {
  itemId: string;
  status: 'succeeded' | 'failed' | 'incomplete' | 'no-transcript';
  verdict?: Omit<Verdict, 'transcript'>;
  /** Call ids the config needs that the transcript lacks (`incomplete`). */
  missing?: string[];
  error?: string;
}

/** A dataset's replay: the agreement report and each item's outcome. */
export interface DatasetReplay {
  report: AgreementReport;
  /** A cascade's per-stage report (replayed calls carry no usage: its tokens and costs are 0). */
  cascade?: CascadeReport;
  items: ReplayedItem[];
  totals: {
    items: number;
    succeeded: number;
    incomplete: number;
    noTranscript: number;
    failed: number;
    repliesApplied: number;
  };
}

function replayOne(
  item: LabelledItem,
  replies: readonly StoredReply[] | undefined,
  settings: ReplaySettings,
): { result: ReplayedItem; applied: number } {
  if (!replies) return { result: { itemId: item.id, status: 'no-transcript' }, applied: 0 };
  const config = resolveMethodConfig(settings.preset, settings.config);
  const method = getMethod(config.method);
  const r = replayReplies(method, createEvaluation(method, config, item.task), replies);
  if ('missing' in r)
    return { result: { itemId: item.id, status: 'incomplete', missing: r.missing }, applied: r.applied };
  if (r.outcome.status !== 'succeeded')
    return { result: { itemId: item.id, status: 'failed', error: r.outcome.error.message }, applied: r.applied };
  const { transcript: _t, ...verdict } = r.outcome.verdict;
  return { result: { itemId: item.id, status: 'succeeded', verdict }, applied: r.applied };
}

/**
 * Replays every item with the replies stored for it (by item id) and reports agreement with the human labels.
 * @throws EngineInputError when the preset or config is invalid (before any item is replayed).
 */
export function replayDataset(
  items: readonly LabelledItem[],
  replies: ReadonlyMap<string, readonly StoredReply[]>,
  settings: ReplaySettings,
): DatasetReplay {
  // Validate once, up front: a bad config is the caller's error, not 80 failed items.
  resolveMethodConfig(settings.preset, settings.config);
  const out: ReplayedItem[] = [];
  let applied = 0;
  for (const item of items) {
    const r = replayOne(item, replies.get(item.id), settings);
    out.push(r.result);
    applied += r.applied;
  }
  const byId = new Map(out.map((r) => [r.itemId, r]));
  const report = reportOfJudged(
    items.map((item) => {
      const r = byId.get(item.id);
      const v = r?.verdict;
      return {
        itemId: item.id,
        status: r?.status ?? 'no-transcript',
        human: item.human,
        group: item.group ?? null,
        winner: v?.winner ?? null,
        score: v?.score ?? null,
        positionFlip: v?.positionFlip ?? null,
        decided: v?.votes.some((x) => x.parsed) === true,
      };
    }),
    settings.report,
  );
  const count = (s: ReplayedItem['status']) => out.filter((r) => r.status === s).length;
  const cascade = cascadeReportOfJudged(
    items.map((item) => ({
      human: item.human,
      status: byId.get(item.id)?.status ?? 'no-transcript',
      details: byId.get(item.id)?.verdict?.details,
    })),
  );
  return {
    report,
    ...(cascade ? { cascade } : {}),
    items: out,
    totals: {
      items: out.length,
      succeeded: count('succeeded'),
      incomplete: count('incomplete'),
      noTranscript: count('no-transcript'),
      failed: count('failed'),
      repliesApplied: applied,
    },
  };
}
