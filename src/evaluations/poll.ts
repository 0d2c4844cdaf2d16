/**
 * @module
 * `GET /v1/evaluations/{id}` as a client polling its running evaluations pays for it. While an evaluation
 * runs, its Durable Object is the one writer of what the answer shows: it counts the calls and makes every end
 * (a cancel and a deletion go through it too, and it takes its own status terminal before D1 hears of the
 * end), and no other field of the answer is written until the end (the usage is booked, the verdict written by
 * the final write). So once this isolate has read the row in D1 and the object said it runs it, a later poll
 * asks only the object: while it still says `running`, the row read then, with the object's progress, is the
 * answer D1 would give. Anything else (an end, an object that cannot answer or never started it) reads D1 as
 * before. The D1 read is what a poll cost the runtime most (BENCHMARKS.md, `npm run bench:poll`).
 *
 * The rows are kept per isolate, at most {@link POLL_MEMO_MAX} of them (the least recently read go first),
 * and a row answers polls for {@link POLL_MEMO_TTL_MS} at most after it was read: an end D1 records without the
 * object (a start the jobs queue dead-lettered while the object ran it) shows within that time. A row past it
 * stays in memory until its next poll or until newer rows push it out.
 */
import type { Bindings } from '../config/bindings.js';
import { archivedEvaluation, findEvaluationWithResults } from './archived.js';
import { runningSnapshot } from './progress.js';
import type { EvaluationSnapshot } from './rpc.js';
import type { EvaluationWithResults } from './rows.js';
import type { Evaluation } from './schemas.js';
import { viewEvaluation } from './views.js';

/**
 * Running evaluations' rows one isolate keeps for their polls (256): a row with the largest metadata the API takes
 * is ~64 KB, so at most ~16 MB of the isolate's 128 MB.
 */
export const POLL_MEMO_MAX = 256;

/** How long a kept row answers polls before D1 is read again, ms (5,000). */
export const POLL_MEMO_TTL_MS = 5_000;

/** The rows kept, by tenant and id, least recently read first (a Map keeps insertion order). */
const kept = new Map<string, { read: EvaluationWithResults; at: number }>();

const keyOf = (tenant: string, id: string) => `${tenant}\n${id}`;

/**
 * The answer to `GET /v1/evaluations/{id}` for `tenant`: from the row this isolate kept while the object says
 * the evaluation runs, else from D1 (or the archive) as {@link findEvaluationWithResults} and
 * {@link viewEvaluation} give it.
 * @throws ApiError 404 `not_found` when neither D1 nor the archive holds it, or it was deleted.
 */
export async function pollEvaluation(env: Bindings, tenant: string, id: string): Promise<Evaluation> {
  const key = keyOf(tenant, id);
  const known = kept.get(key);
  kept.delete(key);
  // The object's answer, when this poll asked it: a kept row it no longer backs reads D1 but not the object again.
  let asked: EvaluationSnapshot | null | undefined;
  if (known && Date.now() - known.at < POLL_MEMO_TTL_MS) {
    asked = await runningSnapshot(env, id);
    if (asked?.status === 'running') {
      keep(key, known);
      return viewEvaluation(env, known.read.row, known.read, asked);
    }
  }
  const found = await findEvaluationWithResults(env, tenant, id);
  if (!found.read) return archivedEvaluation(found.archived);
  const { read } = found;
  if (read.row.status !== 'running') return viewEvaluation(env, read.row, read);
  const snap = asked === undefined ? await runningSnapshot(env, id) : asked;
  if (snap?.status === 'running') keep(key, { read, at: Date.now() });
  return viewEvaluation(env, read.row, read, snap);
}

function keep(key: string, entry: { read: EvaluationWithResults; at: number }): void {
  kept.set(key, entry);
  if (kept.size > POLL_MEMO_MAX) {
    const oldest = kept.keys().next();
    if (!oldest.done) kept.delete(oldest.value);
  }
}
