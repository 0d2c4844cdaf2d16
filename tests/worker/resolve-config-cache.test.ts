/**
 * `resolveMethodConfig` hands out one frozen object per preset and overrides (src/engine/registry.ts), so a
 * burst of one judge parses its config once and its hashes are remembered by identity.
 */
import { describe, expect, it, vi } from 'vitest';
import { resolveMethodConfig } from '../../src/engine/registry.js';
import { configHashOf, configJsonOf } from '../../src/evaluations/config-rows.js';
import { judgeHash } from '../../src/verdict-cache/key.js';

describe('resolved configs', () => {
  it('the same preset and overrides give the same frozen config; the caller keeps its own overrides', () => {
    const overrides = { calibration: { enabled: false } };
    const config = resolveMethodConfig('fastchat-pair', overrides);
    expect(resolveMethodConfig('fastchat-pair', { calibration: { enabled: false } })).toBe(config);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.calibration)).toBe(true);
    expect(Object.isFrozen(overrides.calibration)).toBe(false);
    expect(resolveMethodConfig('fastchat-pair', { calibration: { enabled: true } })).not.toBe(config);
  });

  it('an override set to undefined is not the override left out', () => {
    const base = resolveMethodConfig('fastchat-pair', {});
    const unset = resolveMethodConfig('fastchat-pair', { calibration: undefined });
    expect(unset).not.toBe(base);
    expect(resolveMethodConfig('fastchat-pair', { calibration: undefined })).toBe(unset);
  });

  it('hashes a frozen config as its unfrozen copy', async () => {
    const config = resolveMethodConfig('chateval-faireval', {});
    const copy = structuredClone(config);
    expect(configHashOf(config)).toBe(configHashOf(copy));
    expect(configHashOf(config)).toBe(configHashOf(copy));
    const deployment = { model: 'm', provider: 'p', endpoints: { p: 'https://p.test/v1' } };
    const other = { ...deployment, model: 'n' };
    const hash = await judgeHash({ engineVersion: 'v', config, deployment });
    expect(await judgeHash({ engineVersion: 'v', config, deployment })).toBe(hash);
    expect(await judgeHash({ engineVersion: 'v', config: copy, deployment })).toBe(hash);
    expect(await judgeHash({ engineVersion: 'v', config, deployment: other })).toBe(
      await judgeHash({ engineVersion: 'v', config: copy, deployment: other }),
    );
    expect(await judgeHash({ engineVersion: 'v', config, deployment: other })).not.toBe(hash);
  });

  it("writes a frozen config's JSON once, the same text as its unfrozen copy's", () => {
    const config = resolveMethodConfig('fastchat-pair', { calibration: { enabled: false } });
    const copy = structuredClone(config);
    expect(configJsonOf(config)).toBe(JSON.stringify(copy));
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      expect(configJsonOf(config)).toBe(configJsonOf(copy));
      // Only the copy, which is not frozen, is written again.
      expect(stringify).toHaveBeenCalledTimes(1);
    } finally {
      stringify.mockRestore();
    }
  });
});
