/**
 * @module
 * Deleting an evaluation's data in D1 (`DELETE /v1/evaluations/:id`, data retention): its transcript and
 * verdict rows and a task still waiting for its object (./task-rows.ts) go, its inline task, metadata and
 * error message are blanked, and the row stays as a tombstone (`deleted_at`) because the per-call usage rows
 * that billing keeps refer to it. A final write that comes later (calls that were in flight) writes usage
 * only: its verdict insert checks `deleted_at` (./ending.ts), and the object it comes from erases its own
 * transcript and task. Idempotent. Times are epoch ms.
 */
import { eraseWebhookEventsStatements } from '../webhooks/outbox.js';
import { forgetSourceStatements } from '../verdict-cache/rows.js';
import { scrubSql } from '../config/sqlite-scrub.js';
import { eraseTranscriptStatements } from './transcript-rows.js';
import { eraseTaskStatements, ERASED_TASK } from './task-rows.js';

/**
 * Erases the evaluation's task, metadata, transcript, verdict and webhook events (their payloads carry
 * the verdict; pending deliveries go with them) in one transaction; keeps its usage rows. Its verdict stops
 * serving as a verdict cache entry in the same transaction (src/verdict-cache/rows.ts).
 */
export async function eraseEvaluation(db: D1Database, id: string, now: number): Promise<void> {
  await db.batch(eraseEvaluationStatements(db, id, now));
}

/** The statements of {@link eraseEvaluation}, for a batch that erases several evaluations at once (the crons). */
export function eraseEvaluationStatements(db: D1Database, id: string, now: number): D1PreparedStatement[] {
  return [
    // Each text overwritten in place first, so the file's free space keeps no copy (src/config/sqlite-scrub.ts);
    // the transcripts' and the webhook events' statements do the same for theirs.
    db.prepare(scrubSql('evaluations', ['task', 'metadata', 'error_message'], 'id = ?')).bind(id),
    db.prepare(scrubSql('verdict_texts', ['verdict'], 'evaluation_id = ?')).bind(id),
    ...eraseWebhookEventsStatements(db, id),
    ...forgetSourceStatements(db, id),
    ...eraseTranscriptStatements(db, id),
    db.prepare('DELETE FROM verdict_texts WHERE evaluation_id = ?').bind(id),
    ...eraseTaskStatements(db, id),
    db
      .prepare(
        `UPDATE evaluations SET task = ?, metadata = NULL, error_message = NULL, winner = NULL, score = NULL,
           confidence = NULL, position_flip = NULL, deleted_at = COALESCE(deleted_at, ?), updated_at = ?
         WHERE id = ?`,
      )
      .bind(ERASED_TASK, now, now, id),
  ];
}
