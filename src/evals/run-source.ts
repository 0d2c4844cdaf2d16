/**
 * @module
 * A run's items: given inline (`file_content`, kept in the run's row) or in an uploaded file (`file_id`,
 * read from the tenant's files: src/files/). A file's lines are checked when the run is created (each
 * `{"item": {…}, "sample"?: {…}}`) and read again when the run is worked on.
 */
import type { Bindings } from '../config/bindings.js';
import { ApiError, invalidRequest, toIssues } from '../http/errors.js';
import { fileLines } from '../files/service.js';
import { SourceLineSchema } from './run-schemas.js';

/** One line of the source: the item and the sample it came with. */
export interface SourceLine {
  item: Record<string, unknown>;
  sample?: Record<string, unknown> | undefined;
}

/** A run's stored source as this module reads it. */
type Source = { type: 'file_content'; content: SourceLine[] } | { type: 'file_id'; id: string } | { type: string };

/** Why a run's file can no longer be read (it was deleted while the run went on). */
export class SourceGoneError extends Error {
  override readonly name = 'SourceGoneError';
}

/**
 * The lines of `source` for `tenant`.
 * @throws ApiError 400 naming the field (`data_source.source.id`: no such file, or a line that is not an item)
 *   when `checking` (at create), else {@link SourceGoneError} for a file deleted since.
 */
export async function sourceLines(
  env: Bindings,
  tenant: string,
  source: Source,
  checking: boolean,
): Promise<SourceLine[]> {
  if (source.type === 'file_content') return (source as { content: SourceLine[] }).content;
  if (source.type !== 'file_id') {
    throw new ApiError(
      400,
      'invalid_request',
      `data_source.source.type: "${source.type}" is not read here: send the items inline ("file_content") or upload them ("file_id")`,
      [{ path: 'data_source.source.type', message: `"${source.type}" is not read here` }],
    );
  }
  const id = (source as { id: string }).id;
  const lines = await fileLines(env, tenant, id);
  if (lines === null) {
    if (!checking) throw new SourceGoneError(`file "${id}" was deleted`);
    throw invalidRequest(
      [{ path: 'data_source.source.id', message: `no file "${id}": upload it with POST /v1/files (purpose "evals")` }],
      'request body',
    );
  }
  return lines.map((line, n) => {
    const parsed = SourceLineSchema.strict().safeParse(line);
    if (!parsed.success) {
      throw invalidRequest(
        toIssues(parsed.error, `data_source.source.id (file "${id}" line ${String(n + 1)})`),
        'request body',
      );
    }
    return parsed.data;
  });
}
