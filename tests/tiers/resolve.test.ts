/**
 * The tier a request runs at (src/tiers/resolve.ts): the request's own, refused with a 400 naming the provider
 * that lacks it; else the tenant's default, else the providers' default, each passed over where a provider of
 * the judge does not offer it; the batch tier taken where declared.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.js';
import { thrownBy } from '../support/thrown.js';
import { resolveJudge } from '../../src/methods/resolve-judge.js';
import { resolveTier } from '../../src/tiers/resolve.js';

const BASE = { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_API_KEY: 'k' };
const FLEX = { ...BASE, LLM_SUPPORTS_FLEX: 'true' };
/** A second provider without flex. */
const TWO = {
  ...FLEX,
  LLM_PROVIDERS: JSON.stringify({ slow: { baseUrl: 'http://127.0.0.1:9/v1', apiKeySecret: 'SLOW_API_KEY' } }),
  SLOW_API_KEY: 'k2',
};
const judge = resolveJudge('fastchat-pair', undefined);
const mixed = resolveJudge('chateval-faireval', { agents: [{ provider: 'slow' }, {}] });

describe('resolveTier', () => {
  it("takes the request's tier where every provider of the judge offers it", () => {
    expect(resolveTier(FLEX, judge, { tier: 'flex', flexFallback: 'wait' }, null)).toEqual({
      tier: 'flex',
      flexFallback: 'wait',
    });
    expect(resolveTier(BASE, judge, { tier: 'standard' }, 'flex')).toEqual({
      tier: 'standard',
      flexFallback: 'standard',
    });
  });

  it('refuses a tier a provider lacks with a 400 naming that provider and how it is declared', () => {
    const e = thrownBy(ApiError, () => resolveTier(BASE, judge, { tier: 'flex' }, null));
    expect(e.status).toBe(400);
    expect(e.code).toBe('tier_unsupported');
    expect(e.message).toBe(
      'tier: provider "default" does not offer the flex tier (this deployment declares it with LLM_SUPPORTS_FLEX)',
    );
    const m = thrownBy(ApiError, () => resolveTier(TWO, mixed, { tier: 'flex' }, null));
    expect(m.message).toContain('provider "slow" does not offer the flex tier');
    expect(m.message).toContain('"supportsFlex" in LLM_PROVIDERS');
  });

  it('takes the batch tier where it is declared, and refuses it where not', () => {
    expect(resolveTier({ ...BASE, LLM_SUPPORTS_BATCH: 'true' }, judge, { tier: 'batch' }, null).tier).toBe('batch');
    const e = thrownBy(ApiError, () => resolveTier(BASE, judge, { tier: 'batch' }, null));
    expect(e.code).toBe('tier_unsupported');
    expect(e.message).toContain('provider "default" does not offer the batch tier');
  });

  it("falls back to the tenant's default, then the providers', passing over one a provider lacks", () => {
    expect(resolveTier(FLEX, judge, {}, 'flex').tier).toBe('flex');
    // The tenant asks for flex; "slow" has none: passed over, not refused (the caller did not ask).
    expect(resolveTier(TWO, mixed, {}, 'flex').tier).toBe('standard');
    expect(resolveTier({ ...FLEX, LLM_DEFAULT_TIER: 'flex' }, judge, {}, null).tier).toBe('flex');
    expect(resolveTier({ ...BASE, LLM_DEFAULT_TIER: 'flex' }, judge, {}, null).tier).toBe('standard');
    // A default of batch applies where declared, and is passed over where not.
    expect(resolveTier({ ...BASE, LLM_SUPPORTS_BATCH: 'true' }, judge, {}, 'batch').tier).toBe('batch');
    expect(resolveTier(BASE, judge, {}, 'batch').tier).toBe('standard');
  });
});
