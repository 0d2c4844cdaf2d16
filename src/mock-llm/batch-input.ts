/**
 * @module
 * Validation of a Batch API input file as OpenAI documents it: JSONL lines `{custom_id, method: "POST", url,
 * body}`, `url` equal to the batch's endpoint, unique `custom_id`, one model per file, at most 50,000 requests.
 * Each problem is a `BatchError` with a documented code (`empty_file`, `invalid_json_line`,
 * `missing_required_parameter`, `invalid_method`, `url_mismatch`, `duplicate_custom_id`, `model_mismatch`,
 * `too_many_tasks`) and the 1-based `line`.
 */
import type { BatchError } from 'openai/resources/batches';

/** A line of the input file, as validated. */
export interface InputLine {
  customId: string;
  body: unknown;
}

/**
 * Checks a batch input file as the Batch API documents; the errors fail the batch when validation ends.
 * @param endpoint the batch's endpoint, which every line's `url` must equal
 * @param max requests allowed in the file
 */
export function validateInput(
  content: string,
  endpoint: string,
  max: number,
): { lines: InputLine[]; errors: BatchError[]; model?: string } {
  const raw = content.split('\n');
  if (raw.at(-1)?.trim() === '') raw.pop();
  const errors: BatchError[] = [];
  const lines: InputLine[] = [];
  if (raw.length === 0) return { lines, errors: [{ code: 'empty_file', message: 'The input file is empty.' }] };
  if (raw.length > max) {
    errors.push({
      code: 'too_many_tasks',
      message: `The input file has ${raw.length} requests; a batch can contain at most ${max}.`,
    });
    return { lines, errors };
  }
  const seen = new Set<string>();
  let model: string | undefined;
  const bad = (line: number, code: string, message: string, param: string | null = null) =>
    errors.push({ code, line, message, param });
  for (const [i, text] of raw.entries()) {
    const n = i + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      bad(n, 'invalid_json_line', 'This line is not parseable as valid JSON.');
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      bad(n, 'invalid_json_line', 'This line is not a JSON object.');
      continue;
    }
    const rec = parsed as { custom_id?: unknown; method?: unknown; url?: unknown; body?: unknown };
    if (typeof rec.custom_id !== 'string' || rec.custom_id === '') {
      bad(n, 'missing_required_parameter', 'Missing required parameter: custom_id.', 'custom_id');
      continue;
    }
    if (rec.method !== 'POST') {
      bad(n, 'invalid_method', 'The method must be POST.', 'method');
      continue;
    }
    if (rec.url !== endpoint) {
      bad(n, 'url_mismatch', `The url of this request does not match the batch's endpoint ${endpoint}.`, 'url');
      continue;
    }
    const body = rec.body as { model?: unknown } | null | undefined;
    if (typeof body !== 'object' || body === null || typeof body.model !== 'string') {
      bad(n, 'missing_required_parameter', 'Missing required parameter: body.model.', 'body.model');
      continue;
    }
    if (seen.has(rec.custom_id)) {
      bad(
        n,
        'duplicate_custom_id',
        `The custom_id ${rec.custom_id} is a duplicate of another request's: it must be unique in a batch.`,
        'custom_id',
      );
      continue;
    }
    seen.add(rec.custom_id);
    model ??= body.model;
    if (body.model !== model) {
      bad(
        n,
        'model_mismatch',
        `The model ${body.model} differs from the model ${model} of the file's other requests: one model per file.`,
        'body.model',
      );
      continue;
    }
    lines.push({ customId: rec.custom_id, body });
  }
  return { lines, errors, ...(model !== undefined ? { model } : {}) };
}
