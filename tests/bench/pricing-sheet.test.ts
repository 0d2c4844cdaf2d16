/**
 * docs/pricing.md is what `npm run pricing` writes now: a change to the price table, a preset's prompts or
 * calls, the estimator or the measured platform usage (bench/platform-usage.json) without regenerating the
 * sheet fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentSheet, SHEET_PATH } from '../../bench/pricing.js';
import { platformUsd, SHEET_PRESETS } from '../../bench/pricing-sheet.js';

const ROOT = new URL('../..', import.meta.url).pathname;

describe('price sheet', () => {
  it('docs/pricing.md is not stale (run npm run pricing)', async () => {
    expect(readFileSync(`${ROOT}${SHEET_PATH}`, 'utf8')).toBe(await currentSheet());
  }, 30_000);

  it('prices every preset of the sheet, and a platform footprint at the published rates', async () => {
    const sheet = await currentSheet();
    for (const preset of SHEET_PRESETS) expect(sheet).toContain(`| ${preset} |`);
    const one = {
      workerRequests: 1,
      doRequests: 1,
      doWallMs: 1000,
      d1RowsRead: 1,
      d1RowsWritten: 1,
      d1Queries: 2,
      queueMessages: 1,
      runtimeCpuMs: 1,
    };
    // $0.30 + $0.15 + 0.128 GB-s × $12.50 + $0.001 + $1.00 + 3 × $0.40 + $0.02, per million.
    expect(platformUsd(one) * 1e6).toBeCloseTo(0.3 + 0.15 + 0.128 * 12.5 + 0.001 + 1 + 1.2 + 0.02, 9);
  }, 30_000);
});
