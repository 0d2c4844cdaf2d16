/**
 * @module
 * How a wave of batch lines becomes input files: one model per file (the Batch API's rule), and no file over
 * a request count or a byte size. The byte limit is ours, far below the providers' 200 MB: a Worker isolate
 * has 128 MB, and an upload holds its file in memory (the lines, then the Blob), so a file must stay well
 * under that; the count limit is the providers' 50,000.
 */
import type { BatchInputLine } from './request.js';

/** Limits of one input file. */
export interface BatchFileLimits {
  /** Requests per file. */
  maxRequests: number;
  /** UTF-8 bytes per file, newlines included. */
  maxBytes: number;
}

/** The Batch API's own limits (OpenAI, Groq, Together): 50,000 requests and 200 MB per file. */
export const PROVIDER_BATCH_LIMITS: BatchFileLimits = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

/**
 * Our default limits: the providers' 50,000 requests, and 16 MiB per file so an upload stays well under an
 * isolate's 128 MB (a debate line is ~2-10 KB, so a file holds ~1,500-8,000 lines).
 */
export const DEFAULT_BATCH_FILE_LIMITS: BatchFileLimits = { maxRequests: 50_000, maxBytes: 16 * 1024 * 1024 };

/** One planned input file. */
export interface BatchFilePlan {
  /** The model of every line. */
  model: string;
  /** The `custom_id` of each line, in file order. */
  customIds: string[];
  /** The JSONL lines, each ending in a newline: the file is their concatenation. */
  lines: string[];
  /** UTF-8 bytes of the file. */
  bytes: number;
}

/** A line that cannot be planned: over the byte limit alone, or a `custom_id` used twice in a wave. */
export class BatchPlanError extends Error {
  override readonly name = 'BatchPlanError';
  constructor(
    /** `line_too_large` or `duplicate_custom_id`. */
    readonly code: 'line_too_large' | 'duplicate_custom_id',
    message: string,
    /** The line's `custom_id`. */
    readonly customId: string,
  ) {
    super(message);
  }
}

const encoder = new TextEncoder();

/**
 * Splits a wave's lines into files: grouped by model (first-seen order), each group cut in order into files
 * of at most `limits.maxRequests` lines and `limits.maxBytes` bytes.
 * @param limits default {@link DEFAULT_BATCH_FILE_LIMITS}
 * @throws BatchPlanError for a line longer than `maxBytes` on its own, or a `custom_id` seen twice
 */
export function planBatchFiles(
  lines: readonly BatchInputLine[],
  limits: BatchFileLimits = DEFAULT_BATCH_FILE_LIMITS,
): BatchFilePlan[] {
  const seen = new Set<string>();
  const open = new Map<string, BatchFilePlan>();
  const files: BatchFilePlan[] = [];
  for (const line of lines) {
    if (seen.has(line.custom_id))
      throw new BatchPlanError(
        'duplicate_custom_id',
        `custom_id ${line.custom_id} appears twice in one wave`,
        line.custom_id,
      );
    seen.add(line.custom_id);
    const text = `${JSON.stringify(line)}\n`;
    const bytes = encoder.encode(text).byteLength;
    if (bytes > limits.maxBytes)
      throw new BatchPlanError(
        'line_too_large',
        `the line of ${line.custom_id} has ${bytes} bytes, more than a file may hold (${limits.maxBytes})`,
        line.custom_id,
      );
    const model = line.body.model;
    let file = open.get(model);
    if (!file || file.lines.length >= limits.maxRequests || file.bytes + bytes > limits.maxBytes) {
      file = { model, customIds: [], lines: [], bytes: 0 };
      open.set(model, file);
      files.push(file);
    }
    file.customIds.push(line.custom_id);
    file.lines.push(text);
    file.bytes += bytes;
  }
  return files;
}
