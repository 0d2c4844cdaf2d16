/**
 * @module
 * Where an evaluation's verdict JSON (without transcript) is kept (migrations/0030_task_in_the_object.sql). The
 * evaluation's own Durable Object holds it from the moment the protocol concludes, and answers for it
 * (`content()`, read through ./content.ts). D1 keeps the summary on the row (winner, score, confidence,
 * position_flip) and a copy in `verdict_texts` only where D1's own queries aggregate over the JSON
 * ({@link verdictKeptInD1}): pointwise scores, scales and aspects (listings, batch aspects, annotation queues),
 * repeat runs (a batch's stability), a trajectory's first failing step (traces), a rubric version's steps
 * (src/rubrics), and the items of a meta-evaluation (votes, details). A pairwise verdict elsewhere, the bulk of a batch, lives in its object only.
 * Rows written before keep their `verdict_texts` row, read first. A tenant that stores no content keeps its
 * verdicts: its erasure copies the object's into D1 before it erases the object (src/retention/content.ts).
 */
import type { VerdictSummary } from './live-events.js';
import { sqlMayBecome } from './status.js';

/**
 * Whether D1 keeps `verdict`'s JSON beside its object: when it is pointwise, has aspects, repeat runs or a
 * first failing step, or holds a rubric's steps (the SQL readers of those, see the module note). A meta-evaluation's item is kept too; the
 * statement checks that on the row ({@link verdictTextStatement}).
 */
export function verdictKeptInD1(verdict: VerdictSummary): boolean {
  return (
    verdict.taskKind === 'pointwise' ||
    verdict.aspects !== undefined ||
    verdict.firstFailingStep !== undefined ||
    verdict.details.repeat !== undefined ||
    // A rubric version's steps are stored from it by src/rubrics, which reads D1 (it may not ask objects).
    verdict.method === 'rubric-steps'
  );
}

/**
 * The verdict's JSON in `verdict_texts`, keyed by the evaluation, when D1 keeps it ({@link verdictKeptInD1}, or
 * the row is a meta-evaluation's item): only while the row may still become `succeeded` and the caller has not
 * deleted it (./erase-rows.ts). Before the status update, whose guard it shares. A meta-evaluation's items are
 * items of its batch, so a final write that knows its evaluation is in no batch leaves it out unless
 * {@link verdictKeptInD1} (./ending.ts).
 */
export function verdictTextStatement(
  db: D1Database,
  id: string,
  verdict: VerdictSummary,
  verdictJson: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO verdict_texts (evaluation_id, verdict)
       SELECT ?, ? WHERE EXISTS (SELECT 1 FROM evaluations WHERE id = ? AND deleted_at IS NULL AND ${sqlMayBecome('succeeded')}
         AND (? = 1 OR meta_id IS NOT NULL))
       ON CONFLICT DO NOTHING`,
    )
    .bind(id, verdictJson, id, verdictKeptInD1(verdict) ? 1 : 0);
}

/**
 * The statement keeping a succeeded verdict's JSON in D1 when its object is about to be erased but the verdict
 * must stay (a tenant that stores no content keeps verdicts): writes nothing when D1 has it already.
 */
export function keepVerdictStatement(db: D1Database, id: string, verdictJson: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO verdict_texts (evaluation_id, verdict)
       SELECT ?, ? WHERE EXISTS (SELECT 1 FROM evaluations WHERE id = ? AND deleted_at IS NULL AND status = 'succeeded')
       ON CONFLICT DO NOTHING`,
    )
    .bind(id, verdictJson, id);
}
