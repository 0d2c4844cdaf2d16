/** bench:batch's arguments: `--both-orders` applies to fastchat-pair only, and says so for any other preset. */
import { describe, expect, it } from 'vitest';
import { oneOrderOf } from '../../bench/batch-args.js';
import { UsageError } from '../../src/cli/args.js';

describe('bench:batch --both-orders', () => {
  it('turns fastchat-pair calibration back on; other presets run as they are without it', () => {
    expect(oneOrderOf('fastchat-pair', false)).toBe(true);
    expect(oneOrderOf('fastchat-pair', true)).toBe(false);
    expect(oneOrderOf('chateval-pointwise', false)).toBe(false);
  });

  it('is refused with another preset, naming the flag (a usage error: exit 2)', () => {
    expect(() => oneOrderOf('mtbench-single', true)).toThrow(UsageError);
    expect(() => oneOrderOf('mtbench-single', true)).toThrow(/--both-orders.*--preset mtbench-single/);
  });
});
