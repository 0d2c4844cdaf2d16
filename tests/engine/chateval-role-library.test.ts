/**
 * ChatEval's role library (src/engine/methods/chateval/roles.ts `roleLibrary`) is built once per reading:
 * every debater of every step looks its role up there, and building it anew each time was a share of the
 * object's CPU per debate. Shared, so frozen.
 */
import { describe, expect, it } from 'vitest';
import { resolveAgents, roleLibrary } from '../../src/engine/methods/chateval/roles.js';

describe('the ChatEval role library', () => {
  it('is one frozen object per reading, asked for again', () => {
    for (const source of ['code', 'paper'] as const) {
      const library = roleLibrary(source);
      expect(roleLibrary(source)).toBe(library);
      expect(Object.isFrozen(library)).toBe(true);
    }
    expect(roleLibrary('code')).not.toBe(roleLibrary('paper'));
  });

  it('resolves the same agents from the shared library, repeated names still numbered', () => {
    const first = resolveAgents([{ role: 'Critic' }, { role: 'Critic' }, {}], { source: 'paper' });
    const again = resolveAgents([{ role: 'Critic' }, { role: 'Critic' }, {}], { source: 'paper' });
    expect(again).toEqual(first);
    expect(first.ok && first.agents.map((a) => a.name).slice(0, 2)).toEqual(['Critic 1', 'Critic 2']);
  });
});
