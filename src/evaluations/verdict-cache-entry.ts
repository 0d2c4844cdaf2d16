/**
 * @module
 * The verdict cache's entry for a succeeded evaluation. The entry is the evaluation's own `cache_entry_at`,
 * set by the status update that ends it (src/evaluations/ending.ts, `ENTRY_SET_SQL` of
 * src/verdict-cache/rows.ts), so an entry exists exactly when its verdict does. This effect of the ending
 * (listed in src/ending-plan.ts) runs before that update, guarded by `endingGuard`: the key's older entry stops
 * serving (`replaceEntryStatement`). Other endings write none.
 */
import type { EndingEffect } from './ending.js';
import { endingGuard } from './ending.js';
import { replaceEntryStatement } from '../verdict-cache/rows.js';

/**
 * A succeeded `use` / `refresh` evaluation becomes its key's only cache entry. Nothing for an ending whose writer
 * knows it can become none (`Ending.cacheEntry` false: cache `off`, `bypass` (a sampling judge without a seed) or a
 * hit).
 */
export const VERDICT_CACHE_ENTRY: EndingEffect = {
  name: "a succeeded verdict becomes its key's verdict cache entry",
  handedOn: false,
  statements: (db, ending) =>
    ending.status === 'succeeded' && ending.cacheEntry !== false
      ? [replaceEntryStatement(db, ending.id, endingGuard('succeeded'))]
      : [],
};
