/**
 * `resolveMethodConfig` hands out one frozen object per preset and overrides (src/engine/registry.ts), so a
 * burst of one judge parses its config once and its hashes are remembered by identity; `parsedMethodConfig` does
 * the same for the config JSON an evaluation's object is handed or has stored.
 */
import { describe, expect, it, vi } from 'vitest';
import { parsedMethodConfig, resolveMethodConfig } from '../../src/engine/registry.js';
import { configHashOf, configJsonOf } from '../../src/evaluations/config-rows.js';
import { judgeHash } from '../../src/verdict-cache/key.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { apiWith } from './api-fetch.js';
import { PAIRWISE } from './helpers.js';

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

  it("parses a stored config's JSON once per text, frozen, as the JSON says", () => {
    const json = configJsonOf(resolveMethodConfig('chateval-faireval', { calibration: { enabled: false } }));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const config = parsedMethodConfig(json);
      expect(parsedMethodConfig(json)).toBe(config);
      expect(parsedMethodConfig(`${json} `)).not.toBe(config);
      expect(parse.mock.calls.filter(([text]) => text === json)).toHaveLength(1);
      expect(config).toEqual(JSON.parse(json));
      expect(Object.isFrozen(config)).toBe(true);
      expect(Object.isFrozen(config.calibration)).toBe(true);
    } finally {
      parse.mockRestore();
    }
  });

  it("an evaluation's object takes its config from that parse: a second verdict of one judge does not parse it again", async () => {
    const overrides = { defaults: { model: mockModel({ latency: 1 }) } };
    const json = configJsonOf(resolveMethodConfig('fastchat-pair', overrides));
    const post = (question: string) =>
      apiWith({}, '/v1/evaluations', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Prefer: 'wait=30' },
        body: JSON.stringify({ preset: 'fastchat-pair', config: overrides, task: { ...PAIRWISE, question } }),
      });
    const first = await post('Which answer is kinder?');
    expect(await first.json()).toMatchObject({ status: 'succeeded' });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const second = await post('Which answer is shorter?');
      expect(await second.json()).toMatchObject({ status: 'succeeded' });
      // Before, the object parsed the config it was handed on every start.
      expect(parse.mock.calls.filter(([text]) => text === json)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  });
});
