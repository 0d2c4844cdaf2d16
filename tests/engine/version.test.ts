/** Engine versions (src/engine/version.ts): what a pinned evaluation is compared against. */
import { describe, expect, it } from 'vitest';
import { ENGINE_STATE_VERSION } from '../../src/engine/state.js';
import { METHODS } from '../../src/engine/registry.js';
import { baselineEngineVersion, DEFAULT_METHOD_VERSION, engineVersionOf } from '../../src/engine/version.js';

describe('engineVersionOf', () => {
  it('is `<engine state version>/<method>@<method version>`, version 1 when the method names none', () => {
    expect(engineVersionOf({ method: 'toy' })).toBe(`${ENGINE_STATE_VERSION}/toy@${DEFAULT_METHOD_VERSION}`);
    expect(engineVersionOf({ method: 'toy', version: 3 })).toBe(`${ENGINE_STATE_VERSION}/toy@3`);
  });

  it('changes when a method bumps its version, and differs between methods', () => {
    expect(engineVersionOf({ method: 'toy', version: 2 })).not.toBe(engineVersionOf({ method: 'toy', version: 1 }));
    const all = [...METHODS.values()].map(engineVersionOf);
    expect(new Set(all).size).toBe(METHODS.size);
  });

  it('the baseline of evaluations from before pinning is engine 1, method version 1', () => {
    expect(baselineEngineVersion('debate')).toBe('1/debate@1');
  });
});
