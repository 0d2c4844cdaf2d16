/**
 * The scale model's D1 partitioning options (bench/scale-model.ts) name the figures each row is computed with:
 * `--d1-databases 256` once left rows labelled "64 hashed databases…" beside a heading saying 256. The replay
 * mixes single evaluations in at the load's share, and the control database (every keyed request reads it) has
 * a row of its own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CapacityFootprint, PresetFootprint } from '../../bench/capacity-footprint.js';
import { d1OptionRows } from '../../bench/scale-model.js';
import { AS_BUILT, DEFAULT_LOAD, TARGET } from '../../bench/scale-layouts.js';
import { limitRows, mixedPerVerdict } from '../../bench/scale-limits.js';

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

describe('scale model: single evaluations and the control database', () => {
  const footprint = JSON.parse(
    readFileSync(new URL('../../bench/capacity-footprint.json', import.meta.url), 'utf8'),
  ) as CapacityFootprint;
  const measured = footprint.presets['chateval-faireval'];
  if (!measured) throw new Error('no chateval-faireval in the committed footprint');
  // The batch figures alone (the committed footprint may carry single evaluations of its own).
  const batch: PresetFootprint = { ...measured, single: undefined };
  const single = (rows: number): PresetFootprint => ({
    ...batch,
    perVerdict: { ...batch.perVerdict, d1RowsWritten: rows, d1Bytes: 500 },
  });
  const withSingles: PresetFootprint = { ...batch, single: { judged: single(12), hit: single(13) } };

  it("replays the load's share of single evaluations, each at the worse of judged and cache hit", () => {
    const v = mixedPerVerdict(withSingles, { ...DEFAULT_LOAD, singleShare: 0.5 });
    expect(v.d1RowsWritten).toBeCloseTo(0.5 * batch.perVerdict.d1RowsWritten + 0.5 * 13);
    expect(v.d1Bytes).toBeCloseTo(0.5 * batch.perVerdict.d1Bytes + 0.5 * 500);
    // A footprint measured before single evaluations were counted replays its batch figures.
    expect(mixedPerVerdict(batch, DEFAULT_LOAD).d1RowsWritten).toBe(batch.perVerdict.d1RowsWritten);
    const rows = limitRows(withSingles, DEFAULT_LOAD, AS_BUILT);
    expect(rows.find((r) => r.limit.startsWith('10 GB per database'))?.note).toContain(
      `${v.d1RowsWritten.toFixed(1)} rows written`,
    );
  });

  it('has a row for the control database, which every keyed request reads', () => {
    const load = { ...DEFAULT_LOAD, singleShare: 1, requestsPerSingle: 5 };
    const row = limitRows(batch, load, AS_BUILT).find((r) => r.limit.includes('control database'));
    const peakVps = (load.verdictsPerDay / 86_400) * load.peak;
    const msPerQuery = batch.perVerdict.d1BusyMs / batch.perVerdict.d1Statements;
    expect(row?.atPeak).toBeCloseTo((peakVps * 5 * msPerQuery) / 1000);
    expect(row?.note).toContain(`${Math.round(peakVps * 5).toLocaleString('en')} key reads/s`);
  });
});
