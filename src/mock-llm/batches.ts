/**
 * @module
 * OpenAI's Batch API as the mock serves it, in memory, on a compressed clock (routes in `batch-routes.ts`,
 * input validation in `batch-input.ts`):
 *
 * - `POST /v1/batches {input_file_id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata}`
 *   answers the Batch object in status `validating`; `GET /v1/batches/{id}`; `POST /v1/batches/{id}/cancel`;
 *   `GET /v1/batches` (newest first, `after`, `limit` 1-100 default 20).
 * - Status by time since creation, T = `turnaroundMs`: `validating` until 0.1·T, then `failed` (an invalid
 *   input file, `errors.data` naming each bad line) or `in_progress` until 0.9·T, `finalizing` until T, then
 *   `completed` — or `expired` when any line expired. Each status's timestamp (`in_progress_at`, …) is the
 *   moment of that transition, not of the request that observed it. `request_counts` grow during
 *   `in_progress` as lines finish at seeded times.
 * - Cancel: `cancelling` at once, `cancelled` `cancelMs` later, with the lines finished before the cancel in
 *   the output / error files (OpenAI: "partial results (if any)"); lines that never ran are in neither file.
 *   A batch already `failed`, `completed`, `expired` or `cancelled` cannot be cancelled (400).
 * - Input validation as documented (`batch-input.ts`), up to `maxRequestsPerFile` (default 50,000) requests.
 * - Each line is answered by the same code that answers `POST /v1/chat/completions` (no latency), so a batch
 *   line's reply is byte-identical in content to the synchronous reply of the same body. Output lines
 *   `{id, custom_id, response: {status_code: 200, request_id, body}, error: null}`; error-file lines carry a
 *   4xx/5xx `response` (the body an HTTP caller would get) or, for an expired line, `response: null, error:
 *   {code: "batch_expired", message}`. Both files list lines in a seeded shuffle, never in input order:
 *   consumers must match by `custom_id`. `output_file_id` / `error_file_id` are set only when that file has
 *   lines. `request_counts.failed` counts error-file lines (expired ones included).
 * - Faults: `uploadLossRate` (an upload stored, its answer a 500: `files.ts`); `createLossRate` (a batch
 *   created, its answer a 500: only a lookup by metadata finds it, a blind retry runs the lines twice);
 *   per-line faults: `lineFailureRate` (a 500 `server_error` line) and `lineExpiryRate` (`batch_expired`),
 *   drawn from a hash of (seed, custom_id, how many times that line was submitted), so a line resubmitted in a
 *   later batch draws again. The model name's fault controls (`fail=500:1`, …) apply as on the sync path.
 *
 * Sources: the openai package 6.20's `resources/batches.d.ts`; OpenAI's API reference (batch object, request
 * input and output objects, cancel, list) and Batch guide ("Batch expiration": expired requests go to the
 * error file with code `batch_expired`).
 */
import type { Batch, BatchError, BatchRequestCounts, BatchUsage } from 'openai/resources/batches';
import { hashHex, unitFromHash } from '../llm/hash53.js';
import type { InputLine } from './batch-input.js';
import { validateInput } from './batch-input.js';
import type { MockApiError, MockFileOptions, MockFileStore } from './files.js';

/**
 * Batch options of the mock (constructor options, `npm run mock-llm -- --batch-*`), the Files API's among them
 * (`maxFileBytes`, `uploadLossRate`: `files.ts`).
 */
export interface MockBatchOptions extends MockFileOptions {
  /** Time from create to `completed`, ms: the 24 h window compressed. Default 1,000. */
  turnaroundMs?: number;
  /** Time from `cancelling` to `cancelled`, ms. Default: a tenth of `turnaroundMs`. */
  cancelMs?: number;
  /** Share of lines answered with a 500 `server_error` in the error file, 0-1. Default 0. */
  lineFailureRate?: number;
  /**
   * Share of batch creations that create the batch and then answer a 500 (the answer lost), 0-1, drawn per
   * creation from (seed, batch id). Default 0.
   */
  createLossRate?: number;
  /** Share of lines that expire (`batch_expired` in the error file; the batch ends `expired`), 0-1. Default 0. */
  lineExpiryRate?: number;
  /** Seed of the per-line draws, finishing times and output order (and of the upload losses). Default ''. */
  seed?: string;
  /** Requests allowed in one input file. Default 50,000 (OpenAI's limit). */
  maxRequestsPerFile?: number;
}

/** How one line is answered: the chat-completions handler, without HTTP or latency. */
export type LineAnswerer = (body: unknown) => Promise<{ status: number; body: unknown }>;

const EXPIRED_MESSAGE = 'This request could not be executed before the completion window expired.';

/** A line's fate, decided when the batch starts. */
interface LineResult {
  customId: string;
  /** When the line finishes, ms since epoch. */
  doneAtMs: number;
  /** The output or error file line. */
  line: Record<string, unknown>;
  ok: boolean;
  usage?: { prompt: number; cached: number; completion: number };
}

interface BatchRecord {
  batch: Batch;
  createdMs: number;
  lines: InputLine[];
  errors: BatchError[];
  /** The lines being run (set once, awaited by every request that observes the batch meanwhile). */
  starting?: Promise<LineResult[]>;
  results?: LineResult[];
  cancelAtMs?: number;
  answer: LineAnswerer;
  options: MockBatchOptions;
}

function turnaroundOf(options: MockBatchOptions): number {
  return Math.max(0, options.turnaroundMs ?? 1000);
}

function sec(ms: number): number {
  return Math.floor(ms / 1000);
}

/** In-memory batch store of one mock server. */
export class MockBatchStore {
  private readonly batches = new Map<string, BatchRecord>();
  /** Submissions per line (custom_id and body), so a resubmitted line draws its faults anew. */
  private readonly lineSubmissions = new Map<string, number>();
  private seq = 0;

  /** @param files where output and error files are written */
  constructor(private readonly files: MockFileStore) {}

  /** Creates a batch (already validated request), status `validating`. */
  create(
    input: { inputFileId: string; endpoint: string; metadata: Record<string, string> | null; content: string },
    answer: LineAnswerer,
    nowMs: number,
    options: MockBatchOptions,
  ): Batch {
    this.seq += 1;
    const id = `batch_${String(this.seq).padStart(8, '0')}${hashHex(`batch\u0000${this.seq}\u0000${input.inputFileId}`)}`;
    const { lines, errors, model } = validateInput(input.content, input.endpoint, options.maxRequestsPerFile ?? 50_000);
    const batch: Batch = {
      id,
      object: 'batch',
      endpoint: input.endpoint,
      errors: undefined,
      input_file_id: input.inputFileId,
      completion_window: '24h',
      status: 'validating',
      created_at: sec(nowMs),
      expires_at: sec(nowMs) + 24 * 3600,
      request_counts: { total: 0, completed: 0, failed: 0 },
      metadata: input.metadata,
      ...(model !== undefined ? { model } : {}),
    };
    this.batches.set(id, { batch, createdMs: nowMs, lines, errors, answer, options });
    return structuredClone(batch);
  }

  /** Decides every line's fate and runs the ones that run (content is hash-derived: when does not matter). */
  private async start(r: BatchRecord): Promise<LineResult[]> {
    const seed = r.options.seed ?? '';
    const t = turnaroundOf(r.options);
    const startMs = r.createdMs + 0.1 * t;
    const results: LineResult[] = [];
    for (const line of r.lines) {
      const subKey = hashHex(`${line.customId}\u0000${JSON.stringify(line.body)}`);
      const submission = (this.lineSubmissions.get(subKey) ?? 0) + 1;
      this.lineSubmissions.set(subKey, submission);
      const draw = (what: string) => unitFromHash(`${seed}\u0000${line.customId}\u0000${what}\u0000${submission}`);
      const doneAtMs = startMs + unitFromHash(`${seed}\u0000${r.batch.id}\u0000${line.customId}\u0000done`) * 0.8 * t;
      const id = `batch_req_${hashHex(`${r.batch.id}\u0000${line.customId}`)}`;
      const requestId = `req_${hashHex(`${r.batch.id}\u0000${line.customId}\u0000request`)}`;
      if (draw('expire') < (r.options.lineExpiryRate ?? 0)) {
        results.push({
          customId: line.customId,
          doneAtMs: r.createdMs + t,
          ok: false,
          line: {
            id,
            custom_id: line.customId,
            response: null,
            error: { code: 'batch_expired', message: EXPIRED_MESSAGE },
          },
        });
        continue;
      }
      const answer =
        draw('fail') < (r.options.lineFailureRate ?? 0)
          ? {
              status: 500,
              body: {
                error: {
                  message: 'The server had an error while processing your request (mock batch line fault).',
                  type: 'server_error',
                  param: null,
                  code: null,
                },
              },
            }
          : await r.answer(line.body);
      const usage = answer.status === 200 ? usageOf(answer.body) : undefined;
      results.push({
        customId: line.customId,
        doneAtMs,
        ok: answer.status === 200,
        line: {
          id,
          custom_id: line.customId,
          response: { status_code: answer.status, request_id: requestId, body: answer.body },
          error: null,
        },
        ...(usage ? { usage } : {}),
      });
    }
    return results;
  }

  /** Brings a batch's status up to `nowMs` (transitions are stamped with their own times). */
  private async advance(r: BatchRecord, nowMs: number): Promise<void> {
    const b = r.batch;
    const t = turnaroundOf(r.options);
    const at = (f: number) => r.createdMs + f * t;
    if (b.status === 'validating' && nowMs >= at(0.1) && r.cancelAtMs === undefined) {
      if (r.errors.length > 0) {
        b.status = 'failed';
        b.failed_at = sec(at(0.1));
        b.errors = { object: 'list', data: r.errors };
        return;
      }
      b.status = 'in_progress';
      b.in_progress_at = sec(at(0.1));
      r.starting = this.start(r);
    }
    // Requests that arrive while the lines run wait for them, so none sees a batch without its results.
    if (r.starting) r.results = await r.starting;
    if (b.status === 'cancelling' && r.cancelAtMs !== undefined) {
      const cancelledAt = r.cancelAtMs + (r.options.cancelMs ?? t / 10);
      const done = (r.results ?? []).filter((x) => x.doneAtMs <= (r.cancelAtMs ?? 0));
      b.request_counts = countsOf(done, r.lines.length);
      if (nowMs >= cancelledAt) {
        b.status = 'cancelled';
        b.cancelled_at = sec(cancelledAt);
        this.writeFiles(r, done, cancelledAt);
      }
      return;
    }
    if (b.status === 'in_progress') {
      const done = (r.results ?? []).filter((x) => x.doneAtMs <= nowMs);
      b.request_counts = countsOf(done, r.lines.length);
      if (nowMs >= at(0.9)) {
        b.status = 'finalizing';
        b.finalizing_at = sec(at(0.9));
      }
    }
    if (b.status === 'finalizing' && nowMs >= at(1)) {
      const all = r.results ?? [];
      b.request_counts = countsOf(all, r.lines.length);
      const expired = all.some((x) => x.line.error !== null);
      b.status = expired ? 'expired' : 'completed';
      if (expired) b.expired_at = sec(at(1));
      else b.completed_at = sec(at(1));
      this.writeFiles(r, all, at(1));
    }
  }

  /** Writes the output and error files (shuffled by seed), and the batch's token usage. */
  private writeFiles(r: BatchRecord, results: readonly LineResult[], whenMs: number): void {
    const seed = r.options.seed ?? '';
    const order = (x: LineResult) => hashHex(`${seed}\u0000${r.batch.id}\u0000order\u0000${x.customId}`);
    const shuffled = [...results].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    const jsonl = (xs: readonly LineResult[]) => xs.map((x) => `${JSON.stringify(x.line)}\n`).join('');
    const ok = shuffled.filter((x) => x.ok);
    const failed = shuffled.filter((x) => !x.ok);
    if (ok.length > 0)
      r.batch.output_file_id = this.files.add(jsonl(ok), `batch_${r.batch.id}_output.jsonl`, 'batch_output', whenMs).id;
    if (failed.length > 0)
      r.batch.error_file_id = this.files.add(
        jsonl(failed),
        `batch_${r.batch.id}_error.jsonl`,
        'batch_output',
        whenMs,
      ).id;
    const sum = ok.reduce(
      (s, x) => ({
        prompt: s.prompt + (x.usage?.prompt ?? 0),
        cached: s.cached + (x.usage?.cached ?? 0),
        completion: s.completion + (x.usage?.completion ?? 0),
      }),
      { prompt: 0, cached: 0, completion: 0 },
    );
    const usage: BatchUsage = {
      input_tokens: sum.prompt,
      input_tokens_details: { cached_tokens: sum.cached },
      output_tokens: sum.completion,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: sum.prompt + sum.completion,
    };
    r.batch.usage = usage;
  }

  /** The batch as of `nowMs`, or undefined. */
  async get(id: string, nowMs: number): Promise<Batch | undefined> {
    const r = this.batches.get(id);
    if (!r) return undefined;
    await this.advance(r, nowMs);
    return structuredClone(r.batch);
  }

  /** Cancels a batch: the batch as of `nowMs`, or the error to answer. */
  async cancel(id: string, nowMs: number): Promise<{ batch: Batch } | { error: MockApiError }> {
    const r = this.batches.get(id);
    if (!r) return { error: batchNotFound(id) };
    await this.advance(r, nowMs);
    const b = r.batch;
    if (b.status === 'validating' || b.status === 'in_progress' || b.status === 'finalizing') {
      b.status = 'cancelling';
      b.cancelling_at = sec(nowMs);
      r.cancelAtMs = nowMs;
      await this.advance(r, nowMs);
    } else if (b.status !== 'cancelling') {
      return {
        error: {
          status: 400,
          message: `Cannot cancel a batch with status '${b.status}'.`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      };
    }
    return { batch: structuredClone(b) };
  }

  /** Every batch as of `nowMs`, newest first. */
  async list(nowMs: number): Promise<Batch[]> {
    const out: Batch[] = [];
    for (const r of [...this.batches.values()].reverse()) {
      await this.advance(r, nowMs);
      out.push(structuredClone(r.batch));
    }
    return out;
  }
}

function countsOf(done: readonly LineResult[], total: number): BatchRequestCounts {
  const completed = done.filter((x) => x.ok).length;
  return { total, completed, failed: done.length - completed };
}

function usageOf(body: unknown): LineResult['usage'] {
  const u = (
    body as {
      usage?: {
        prompt_tokens?: number;
        completion_tokens?: number;
        prompt_tokens_details?: { cached_tokens?: number };
      };
    } | null
  )?.usage;
  if (!u) return undefined;
  return {
    prompt: u.prompt_tokens ?? 0,
    cached: u.prompt_tokens_details?.cached_tokens ?? 0,
    completion: u.completion_tokens ?? 0,
  };
}

/** The 404 of an unknown batch id. */
export function batchNotFound(id: string): MockApiError {
  return {
    status: 404,
    message: `No batch found with id '${id}'.`,
    type: 'invalid_request_error',
    param: null,
    code: null,
  };
}
