/**
 * @module
 * An evaluation's transcript: the rows the final write builds from the object's stored calls
 * ({@link transcriptRowsOf}), which the object keeps in its own storage, and the D1 read of the rows
 * evaluations that ended before that kept in D1's `transcripts` table ({@link listTranscript}).
 */
import type { LlmAttempt, Usage } from '../engine/call.js';
import type { StoredCall } from './final-write.js';
import { scrubSql } from '../config/sqlite-scrub.js';

/** One `transcripts` row, with the usage of its call. */
export interface TranscriptRow {
  seq: number;
  callId: string;
  agent: string;
  label: string;
  stage: string;
  model: string;
  content: string;
  parseError: string | null;
  /** Tokens and cost of this reply (zeros for a request's further choices and a missing legacy `usage` row). */
  usage: Usage;
  /**
   * The call's billing detail, on the row of the call itself (not on a request's further choices): D1 keeps
   * only the roll-up (src/tenants/usage-rollup.ts), so the per-call detail lives here, in the object.
   * Absent on rows read from D1's legacy `transcripts`. Not part of the API's transcript.
   */
  billing?: CallBilling;
}

/** One billed call's detail, as the object keeps it with its transcript. */
export interface CallBilling {
  /** The tier that answered. */
  tier: string;
  /** Attempts the LLM layer made (1 = no retry). */
  attempts: number;
  /** The failed attempts before the one that answered, each with its tier; absent when none. */
  failedAttempts?: LlmAttempt[];
  /** Wall time of the call including retries, ms; null when unknown. */
  latencyMs: number | null;
  /** When the result was stored, epoch ms. */
  at: number;
}

const NO_USAGE: Usage = {
  promptTokens: 0,
  completionTokens: 0,
  cachedPromptTokens: 0,
  estimated: false,
  costUsd: 0,
  cacheSavedUsd: 0,
};

/**
 * The transcript of the stored calls, in recording order: one row per reply (a request with `n` gives one per
 * choice, the further choices with zero usage: the request's first row bills them), each with its call's usage.
 */
export function transcriptRowsOf(calls: readonly StoredCall[]): TranscriptRow[] {
  return calls
    .flatMap((t) => [
      { t, callId: t.callId, content: t.content, parseError: t.parseError, usage: t.usage, own: true },
      ...(t.choices ?? []).map((c) => ({ t, ...c, usage: NO_USAGE, own: false })),
    ])
    .map((r, seq) => ({
      seq,
      callId: r.callId,
      agent: r.t.agent,
      label: r.t.label,
      stage: r.t.stage,
      model: r.t.model,
      content: r.content,
      parseError: r.parseError,
      usage: {
        promptTokens: r.usage.promptTokens,
        completionTokens: r.usage.completionTokens,
        cachedPromptTokens: r.usage.cachedPromptTokens,
        estimated: r.usage.estimated,
        costUsd: r.usage.costUsd,
        cacheSavedUsd: r.usage.cacheSavedUsd ?? 0,
      },
      ...(r.own ? { billing: billingOf(r.t) } : {}),
    }));
}

function billingOf(t: StoredCall): CallBilling {
  return {
    tier: t.usage.tier ?? 'standard',
    attempts: t.attempts,
    ...(t.failedAttempts && t.failedAttempts.length > 0 ? { failedAttempts: t.failedAttempts } : {}),
    latencyMs: t.latencyMs,
    at: t.at,
  };
}

/** A row as the API shows it: without the object's per-call billing detail. */
export function transcriptMessageOf(row: TranscriptRow): Omit<TranscriptRow, 'billing'> {
  const { billing: _kept, ...message } = row;
  return message;
}

/**
 * The transcript an evaluation that ended before the object kept it has in D1, in recording order: every successful call's reply, for
 * succeeded, failed and cancelled evaluations alike (the final write stores them all), each with its
 * usage (joined from the `usage` row of the same call, the one source of billing).
 */
export async function listTranscript(db: D1Database, id: string): Promise<TranscriptRow[]> {
  return transcriptOf(await listTranscriptStatement(db, id).all());
}

/** The read of {@link listTranscript}, for a batch that reads several evaluations at once; parse with {@link transcriptOf}. */
export function listTranscriptStatement(db: D1Database, id: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT t.seq, t.call_id, t.agent, t.label, t.stage, t.model, t.content, t.parse_error,
         u.prompt_tokens, u.completion_tokens, u.cached_prompt_tokens, u.estimated, u.cost_usd, u.cache_saved_usd
       FROM transcripts t LEFT JOIN usage u ON u.evaluation_id = t.evaluation_id AND u.call_id = t.call_id
       WHERE t.evaluation_id = ? ORDER BY t.seq`,
    )
    .bind(id);
}

/** A transcript row as {@link listTranscriptStatement} reads it. */
interface TranscriptD1Row {
  seq: number;
  call_id: string;
  agent: string;
  label: string;
  stage: string;
  model: string;
  content: string;
  parse_error: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cached_prompt_tokens: number | null;
  estimated: number | null;
  cost_usd: number | null;
  cache_saved_usd: number | null;
}

/** The rows of a {@link listTranscriptStatement} result (none for a missing result). */
export function transcriptOf(result: D1Result | undefined): TranscriptRow[] {
  return ((result?.results ?? []) as TranscriptD1Row[]).map((r) => ({
    seq: r.seq,
    callId: r.call_id,
    agent: r.agent,
    label: r.label,
    stage: r.stage,
    model: r.model,
    content: r.content,
    parseError: r.parse_error,
    usage: {
      promptTokens: r.prompt_tokens ?? 0,
      completionTokens: r.completion_tokens ?? 0,
      cachedPromptTokens: r.cached_prompt_tokens ?? 0,
      estimated: (r.estimated ?? 0) !== 0,
      costUsd: r.cost_usd ?? 0,
      cacheSavedUsd: r.cache_saved_usd ?? 0,
    },
  }));
}

/**
 * Statements erasing evaluation `id`'s rows in D1's `transcripts` (those of an evaluation that ended before
 * the object kept its transcript): each text overwritten in place first, so the file's free space keeps no
 * copy (src/config/sqlite-scrub.ts), then the rows deleted. For a deletion's or an erasure's own batch.
 */
export function eraseTranscriptStatements(db: D1Database, id: string): D1PreparedStatement[] {
  return [
    db.prepare(scrubSql('transcripts', ['content', 'parse_error'], 'evaluation_id = ?')).bind(id),
    db.prepare('DELETE FROM transcripts WHERE evaluation_id = ?').bind(id),
  ];
}
