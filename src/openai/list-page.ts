/**
 * @module
 * OpenAI's cursor page (`{object: 'list', data, first_id, last_id, has_more}`), as the Evals and Files APIs
 * answer their lists, so the `openai` SDK's auto-pagination reads them.
 */

/** OpenAI's list shape around one page of `data` (the page's first and last ids, whether more follow). */
export function listPage<T extends { id: string }>(data: T[], hasMore: boolean) {
  return {
    object: 'list' as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: hasMore,
  };
}
