/**
 * @module
 * A verdict cache hit as a started evaluation takes it: the columns its job is read with, and the verdict it
 * ends with (the cached one, with 0 calls and $0: this evaluation made no call).
 */
import type { Verdict } from '../engine/verdict.js';
import { ZERO_USAGE } from '../engine/call.js';

/**
 * Columns of a SELECT over `evaluations` (named `table` there) that carry its hit: `cache_from` and the
 * source's verdict JSON as `cached_verdict` (null once the source was deleted). Read them with {@link hitOf}.
 */
export function hitColumns(table = 'evaluations'): string {
  return `${table}.cache_from AS cache_from, (SELECT s.verdict FROM verdict_texts s WHERE s.evaluation_id = ${table}.cache_from) AS cached_verdict`;
}

/** A hit as a started evaluation takes it: the source and its verdict JSON (without transcript). */
export interface CacheHit {
  from: string;
  /**
   * The source's verdict JSON as D1 keeps it; null when D1 keeps none (src/evaluations/verdict-rows.ts): the
   * source's object holds it, and the starting object reads it there (a source erased since is a miss).
   */
  verdict: string | null;
}

/** The hit out of a row read with {@link hitColumns}; null for a miss. */
export function hitOf(row: { cache_from: string | null; cached_verdict: string | null }): CacheHit | null {
  return row.cache_from !== null ? { from: row.cache_from, verdict: row.cached_verdict } : null;
}

/**
 * The verdict a hit ends with: the source's verdict (winner, scores, votes, confidence, details, …) with this
 * evaluation's own cost, 0 calls and zero usage.
 * @param verdict the source's stored verdict JSON (without transcript)
 */
export function servedVerdict(verdict: string): Omit<Verdict, 'transcript'> {
  const source = JSON.parse(verdict) as Omit<Verdict, 'transcript'>;
  return { ...source, calls: 0, usage: ZERO_USAGE };
}
