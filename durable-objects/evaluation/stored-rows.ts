/**
 * @module
 * The shapes of the evaluation object's rows as its SQLite holds them, and the codecs of the JSON columns the
 * object's modules read from them (errors, the verdict). {@link EvaluationStore} (./storage.ts) reads and writes
 * them.
 */
import type { LlmCallResult } from '../../src/engine/call.js';
import type { EvaluationError, VerdictSummary } from '../../src/evaluations/live-events.js';
import type { EvaluationStatus } from '../../src/evaluations/status.js';
import type { FlexFallback, Tier } from '../../src/llm/tiers.js';

/** The single `evaluation` row. */
export type MetaRow = {
  id: string;
  tenant: string;
  method: string;
  /** Resolved method config, JSON text. */
  config: string;
  /** Task, JSON text. */
  task: string;
  status: EvaluationStatus;
  calls_planned: number;
  started_at: number;
  updated_at: number;
  /** {@link EvaluationError} as JSON text, or null. */
  error: string | null;
  /** 1 once the final D1 write landed (or was given up on). */
  finalized: number;
  alarm_failures: number;
  /** Consecutive failed final writes (backoff and the give-up check). */
  finalize_failures: number;
  /** The engine version the evaluation started with (src/engine/version.ts). */
  engine_version: string;
  /** {@link VerdictSummary} as JSON text once the protocol concluded, else null. */
  verdict: string | null;
  /** The service tier it runs at, and what a flex refusal leads to. */
  tier: Tier;
  flex_fallback: FlexFallback;
  /** The group its batch-tier calls are waved with (its batch, else itself); null below the batch tier. */
  wave_group: string | null;
  /** The rubric's content (src/engine/rubric.ts) as JSON text, or null for none. */
  rubric: string | null;
};

/**
 * The `ended` marker: the evaluation ended (cancel, DLQ failure, invalid or already-ended job) while this
 * object had not started it, so there is no `evaluation` row to carry the status.
 */
export type EndedRow = {
  id: string;
  status: EvaluationStatus;
  /** {@link EvaluationError} as JSON text, or null. */
  error: string | null;
  /** Epoch ms. */
  at: number;
};

/** A `results` row. */
export type ResultRow = {
  seq: number;
  call_id: string;
  agent: string;
  label: string;
  stage: string;
  ok: number;
  /** {@link LlmCallResult} as JSON text. */
  result: string;
  attempts: number;
  started_at: number;
  finished_at: number;
  latency_ms: number | null;
};

/**
 * The `evaluation` row's columns that {@link MetaRow} holds, for its read: every key of it (TypeScript checks
 * the list is whole), and not `transcript`, the largest, which only `EvaluationStore.transcript` (./storage.ts) reads.
 */
export const META_COLUMNS = Object.keys({
  id: 1,
  tenant: 1,
  method: 1,
  config: 1,
  task: 1,
  status: 1,
  calls_planned: 1,
  started_at: 1,
  updated_at: 1,
  error: 1,
  finalized: 1,
  alarm_failures: 1,
  finalize_failures: 1,
  engine_version: 1,
  verdict: 1,
  tier: 1,
  flex_fallback: 1,
  wave_group: 1,
  rubric: 1,
} satisfies Record<keyof MetaRow, 1>).join(', ');

/** The columns of a `results` row the final write reads (`EvaluationStore.storedCalls`, ./storage.ts). */
export type KnownResult = Pick<
  ResultRow,
  'agent' | 'label' | 'stage' | 'ok' | 'result' | 'attempts' | 'finished_at' | 'latency_ms'
>;

/** A result to store: what the call asked, what came back, and when. */
export interface NewResult {
  callId: string;
  agent: string;
  label: string;
  stage: string;
  result: LlmCallResult;
  attempts: number;
  startedAt: number;
  finishedAt: number;
  latencyMs: number;
}

/** The error stored as JSON text, or null when there is none. */
export function parseStoredError(text: string | null): EvaluationError | null {
  return text ? (JSON.parse(text) as EvaluationError) : null;
}

/** An error as stored: JSON text, or null. */
export function storedError(error: EvaluationError | null): string | null {
  return error ? JSON.stringify(error) : null;
}

/** The verdict stored in the `evaluation` row, or null. */
export function storedVerdict(m: Pick<MetaRow, 'verdict'>): VerdictSummary | null {
  return m.verdict ? (JSON.parse(m.verdict) as VerdictSummary) : null;
}
