/**
 * @module
 * The verdict cache's entry for a succeeded evaluation: an effect of the ending (listed in src/ending-plan.ts)
 * in the ending's own transaction, after the verdict row and guarded by `endingGuard`, so an entry exists
 * exactly when its verdict does (the statement: `recordEntryStatement`, src/verdict-cache/rows.ts). Other
 * endings write none.
 */
import type { EndingEffect } from './ending.js';
import { endingGuard } from './ending.js';
import { recordEntryStatement } from '../verdict-cache/rows.js';

/** Records a succeeded `use` / `refresh` evaluation's verdict as its key's cache entry. */
export const VERDICT_CACHE_ENTRY: EndingEffect = {
  name: "a succeeded verdict becomes its key's verdict cache entry",
  handedOn: false,
  statements: (db, ending) =>
    ending.status === 'succeeded' ? [recordEntryStatement(db, ending.id, ending.now, endingGuard('succeeded'))] : [],
};
