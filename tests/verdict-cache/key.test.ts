/**
 * The verdict cache's key and decision (src/verdict-cache/): a change to any part of the judge (engine
 * version, resolved config, deployment defaults), the rubric, the task or the seed gives another key; key
 * order and the budget do not; a sampling judge without a seed bypasses the cache unless asked.
 */
import { describe, expect, it } from 'vitest';
import type { KeyParts } from '../../src/verdict-cache/key.js';
import { NO_RUBRIC, verdictCacheKey } from '../../src/verdict-cache/key.js';
import { cacheDecision, maxTemperature, planCache } from '../../src/verdict-cache/plan.js';
import { resolveMethodConfig } from '../../src/engine/registry.js';
import { rubricHash } from '../../src/engine/rubric.js';

const TASK = { kind: 'pairwise', question: 'Capital of France?', answerA: 'Paris.', answerB: 'Lyon.' };

const BASE: KeyParts = {
  engineVersion: '1/fastchat-pair@1',
  config: resolveMethodConfig('fastchat-pair', { defaults: { model: 'gpt-4o-mini' } }),
  deployment: { model: 'mock-judge', provider: 'default', endpoints: { default: 'https://api.example/v1' } },
  rubricHash: NO_RUBRIC,
  task: TASK,
  seed: null,
};

describe('verdict cache key', () => {
  it('is a stable lower-case sha-256 that ignores key order and the budget', async () => {
    const key = await verdictCacheKey(BASE);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(await verdictCacheKey({ ...BASE })).toBe(key);
    const reordered = { answerB: 'Lyon.', answerA: 'Paris.', question: 'Capital of France?', kind: 'pairwise' };
    expect(await verdictCacheKey({ ...BASE, task: reordered })).toBe(key);
    expect(await verdictCacheKey({ ...BASE, config: { ...BASE.config, budget: { maxUsd: 1 } } })).toBe(key);
  });

  it('misses on a change to any part: engine, config, deployment, rubric, task, seed', async () => {
    const key = await verdictCacheKey(BASE);
    const rubric = await rubricHash({ kind: 'pairwise', criteria: 'Prefer the factually correct answer.' });
    const variants: Record<string, KeyParts> = {
      engine: { ...BASE, engineVersion: '1/fastchat-pair@2' },
      model: {
        ...BASE,
        config: resolveMethodConfig('fastchat-pair', { defaults: { model: 'gpt-4o' } }),
      },
      temperature: {
        ...BASE,
        config: resolveMethodConfig('fastchat-pair', {
          defaults: { model: 'gpt-4o-mini', temperature: 0.5 },
        }),
      },
      prompt: {
        ...BASE,
        config: resolveMethodConfig('fastchat-pair', {
          defaults: { model: 'gpt-4o-mini' },
          calibration: { enabled: false },
        }),
      },
      'deployment model': { ...BASE, deployment: { ...BASE.deployment, model: 'other' } },
      'deployment provider': { ...BASE, deployment: { ...BASE.deployment, provider: 'openrouter' } },
      'provider endpoint': {
        ...BASE,
        deployment: { ...BASE.deployment, endpoints: { default: 'https://b.example/v1' } },
      },
      rubric: { ...BASE, rubricHash: rubric },
      task: { ...BASE, task: { ...TASK, answerB: 'Marseille.' } },
      seed: { ...BASE, seed: 0 },
      'other seed': { ...BASE, seed: 1 },
    };
    const keys = new Map<string, string>();
    for (const [name, parts] of Object.entries(variants)) {
      const k = await verdictCacheKey(parts);
      expect(k, name).not.toBe(key);
      keys.set(k, name);
    }
    expect(keys.size, 'every variant has a key of its own').toBe(Object.keys(variants).length);
  });
});

describe('verdict cache decision', () => {
  const greedy = resolveMethodConfig('fastchat-pair', {});
  const sampling = resolveMethodConfig('fastchat-pair', { defaults: { temperature: 0.7 } });

  it('finds a temperature at any depth', () => {
    expect(maxTemperature(greedy)).toBe(0);
    expect(maxTemperature(sampling)).toBe(0.7);
    expect(maxTemperature({ agents: [{ temperature: 0 }, { x: { temperature: 1.2 } }] })).toBe(1.2);
  });

  it('uses the cache by default; a sampling judge without a seed and a repeat bypass it unless asked', () => {
    expect(cacheDecision({}, greedy)).toBe('use');
    expect(cacheDecision({}, sampling)).toBe('bypass');
    expect(cacheDecision({ seed: 3 }, sampling)).toBe('use');
    expect(cacheDecision({ mode: 'use' }, sampling)).toBe('use');
    expect(cacheDecision({ repeat: true }, greedy)).toBe('bypass');
    expect(cacheDecision({ repeat: true, mode: 'refresh' }, greedy)).toBe('refresh');
    expect(cacheDecision({ mode: 'off' }, greedy)).toBe('off');
  });

  it('keys every task of a request under one judge, and none when off or bypassed', async () => {
    const judge = {
      engineVersion: BASE.engineVersion,
      config: greedy as Record<string, unknown>,
      deployment: BASE.deployment,
      rubricHash: NO_RUBRIC,
    };
    const plans = await planCache({}, judge, [TASK, { ...TASK, answerA: 'Paris!' }, TASK]);
    expect(plans.map((p) => p.mode)).toEqual(['use', 'use', 'use']);
    expect(plans[0]?.key).toBe(plans[2]?.key);
    expect(plans[0]?.key).not.toBe(plans[1]?.key);
    expect(plans[0]?.key).toBe(await verdictCacheKey({ ...judge, task: TASK, seed: null }));
    expect(await planCache({ mode: 'off' }, judge, [TASK])).toEqual([{ mode: 'off', key: null }]);
    const bypass = await planCache({}, { ...judge, config: sampling }, [TASK]);
    expect(bypass).toEqual([{ mode: 'bypass', key: null }]);
  });
});
