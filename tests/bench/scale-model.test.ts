/**
 * The scale model's D1 partitioning options (bench/scale-model.ts) name the figures each row is computed with:
 * `--d1-databases 256` once left rows labelled "64 hashed databases…" beside a heading saying 256.
 */
import { describe, expect, it } from 'vitest';
import { d1OptionRows } from '../../bench/scale-model.js';
import { AS_BUILT, TARGET } from '../../bench/scale-layouts.js';

describe('scale model: D1 partitioning options', () => {
  it('labels every row with its databases, spread and days kept, at a layout other than the defaults', () => {
    const target = { ...TARGET.d1, databases: 256, hotDays: 14 };
    const asBuilt = { ...AS_BUILT.d1, databases: 256, largestTenantSpread: 32 };
    const rows = d1OptionRows(target, asBuilt);
    expect(rows.length).toBeGreaterThan(10);
    for (const [label, d1] of rows) {
      const databases = /^(?:as built: )?(\d+) /.exec(label)?.[1];
      if (databases !== undefined) expect(Number(databases), label).toBe(d1.databases);
      const spread = / spread (?:over )?(\d+)/.exec(label)?.[1];
      if (spread !== undefined) expect(Number(spread), label).toBe(Math.min(d1.largestTenantSpread ?? 1, d1.databases));
      const kept = /(\d+) days \+ archive/.exec(label)?.[1];
      if (kept !== undefined) expect(Number(kept), label).toBe(d1.hotDays);
      if (label.includes('a year in D1') || label.includes('no archive')) expect(d1.hotDays, label).toBeNull();
    }
    expect(rows.filter(([label]) => label.startsWith('256 ') || label.startsWith('as built: 256 '))).toHaveLength(9);
  });
});
