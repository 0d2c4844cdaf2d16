/**
 * @module
 * The API's shapes as the viewer reads them (type-only imports: no server code reaches the bundle):
 * - requests and answers from src/client/api-types.ts, the types generated from the API's OpenAPI
 *   document (`npm run client:types`, kept current by tests/client/api-types.test.ts), which is generated
 *   from the routes' zod schemas: the viewer is a client of the published contract;
 * - the live events from src/pipeline/events.ts (the stream's data is not in the document), which names
 *   only platform-free engine types.
 * So a change to the contract fails `npm run typecheck` here instead of breaking the page, and the
 * browser code never type-checks Worker modules (their workerd globals clash with the DOM's).
 */
import type { components } from '../../client/api-types.js';

type Schemas = components['schemas'];

export type { EvaluationEvent } from '../../pipeline/events.js';

/** `{ error: { code, message, issues? } }`. */
export type ErrorBody = Schemas['Error'];
/** Body of `POST /v1/evaluations`. */
export type CreateEvaluationRequest = Schemas['CreateEvaluationRequest'];
/** Answer to `POST /v1/evaluations`. */
export type EvaluationAccepted = Schemas['EvaluationAccepted'];
/** Answer to `GET /v1/evaluations/{id}`. */
export type Evaluation = Schemas['Evaluation'];
/** Status of an evaluation. */
export type EvaluationStatus = Schemas['EvaluationStatus'];
/** A verdict without its transcript (the document marks the component nullable, as `Evaluation.verdict` is). */
export type VerdictSummary = NonNullable<Schemas['VerdictSummary']>;
/** One agent's vote or score. */
export type Vote = VerdictSummary['votes'][number];
/** Answer to `GET /v1/evaluations/{id}/transcript`. */
export type Transcript = Schemas['Transcript'];
/** Answer to `GET /v1/methods`. */
export type MethodsResponse = Schemas['MethodsResponse'];
/** One preset of `GET /v1/methods`. */
export type PresetInfo = Schemas['PresetInfo'];
/** What is judged. */
export type Task = Schemas['Task'];
/** Answer to `GET /v1/meta-evaluations/{id}`. */
export type MetaEvaluation = Schemas['MetaEvaluation'];
/** An agreement report (pairwise or pointwise). */
export type AgreementReport = NonNullable<MetaEvaluation['report']>;
/** A pairwise agreement report. */
export type PairwiseReport = Extract<AgreementReport, { kind: 'pairwise' }>;
/** A pointwise agreement report. */
export type PointwiseReport = Extract<AgreementReport, { kind: 'pointwise' }>;
/** Metadata as stored: string, number or boolean values. */
export type Metadata = Schemas['Metadata'];

/**
 * An evaluation's metadata. The generator writes a nullable `$ref` as `Metadata & (Record<string, never> |
 * null)`, whose values read as `never`; this is the type the schema means.
 */
export function metadataOf(e: { metadata: unknown }): Metadata | null {
  return e.metadata as Metadata | null;
}

/*
 * Listing and batches (`GET /v1/evaluations`, `/v1/batches…`) come from another branch (w2-batches).
 * Each type below is the generated schema of that name once the OpenAPI document has it (after that
 * branch is merged and `npm run client:types` ran), and until then a mirror of its zod schema
 * (src/api/listing.ts, src/batches/schemas.ts on that branch): so the pages build either way, and once
 * the routes exist they are type-checked against the real schemas with no edit here. A deployment
 * without those routes answers 404/405, which the pages show as "not available" (./views/unavailable.ts).
 */

/** The document's schema `K` when it has one, else the mirror `F`. */
type FromDocument<K extends string, F> = Schemas extends Record<K, infer T> ? T : F;

interface BatchCountsMirror { total: number; pending: number; ended: number; succeeded: number; failed: number; cancelled: number }
interface BatchSummaryMirror {
  id: string;
  kind: 'batch' | 'meta_evaluation';
  status: 'running' | 'cancelling' | 'completed' | 'cancelled';
  method: string;
  preset: string | null;
  counts: BatchCountsMirror;
  createdAt: string;
  completedAt: string | null;
  cancelRequestedAt: string | null;
  links: { self: string; results: string; cancel: string };
}
interface BatchMirror extends BatchSummaryMirror {
  webhook: { url: string } | null;
  verdicts: { verdicts: number; winsA: number; winsB: number; ties: number; winRateA: number | null; winRateB: number | null; tieRate: number | null; meanScore: number | null };
  usage: Schemas['UsageTotals'];
}
interface BatchResultLineMirror {
  index: number;
  itemId: string | null;
  evaluationId: string;
  status: EvaluationStatus;
  deleted: boolean;
  metadata: Metadata | null;
  verdict: VerdictSummary | null;
  error: { code: string; message: string } | null;
}
interface EvaluationListItemMirror {
  id: string;
  status: EvaluationStatus;
  method: string;
  preset: string | null;
  taskKind: 'pairwise' | 'pointwise';
  metadata: Metadata | null;
  batchId: string | null;
  metaId: string | null;
  verdict: { winner: 'A' | 'B' | 'tie' | null; score: number | null; confidence: number } | null;
  error: { code: string; message: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** Answer to `GET /v1/evaluations`. */
export type EvaluationList = FromDocument<'EvaluationList', { data: EvaluationListItemMirror[]; nextCursor: string | null }>;
/** An evaluation in `GET /v1/evaluations`: the verdict's headline only. */
export type EvaluationListItem = FromDocument<'EvaluationListItem', EvaluationListItemMirror>;
/** Answer to `GET /v1/batches`. */
export type BatchList = FromDocument<'BatchList', { data: BatchSummaryMirror[]; nextCursor: string | null }>;
/** A batch in `GET /v1/batches`. */
export type BatchSummary = FromDocument<'BatchSummary', BatchSummaryMirror>;
/**
 * Answer to `GET /v1/batches/{id}`, with `webhook` as the schema means it (the generator writes a
 * nullable `$ref` in a way whose null reads as impossible: see {@link metadataOf}).
 */
export type Batch = Omit<FromDocument<'Batch', BatchMirror>, 'webhook'> & { webhook: { url: string } | null };
/** One NDJSON line of `GET /v1/batches/{id}/results`. */
export type BatchResultLine = FromDocument<'BatchResultLine', BatchResultLineMirror>;
