/**
 * "Did you mean": the closest known name within a few edits (none when nothing is close), and the keys a
 * config schema knows at a path, through optional, default, array and union wrappers.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closest, didYouMean, keysAt } from '../../src/engine/suggest.js';

describe('closest', () => {
  it('offers a name a few edits away, a prefix, or a swap; nothing when none is close', () => {
    expect(closest('turn', ['agents', 'turns', 'defaults'])).toBe('turns');
    expect(closest('chateval-fairevl', ['chateval-faireval', 'chateval-single'])).toBe('chateval-faireval');
    expect(closest('modle', ['model', 'role'])).toBe('model');
    expect(closest('Turns', ['turns'])).toBe('turns');
    expect(closest('zzz', ['turns', 'agents'])).toBeUndefined();
    expect(didYouMean('zzz', ['turns'])).toBe('');
    expect(didYouMean('turnz', ['turns'])).toBe(' (did you mean "turns"?)');
    // A known name is not offered back to whoever sent it; another case of it is.
    expect(didYouMean('turns', ['turns', 'turn'])).toBe('');
    expect(didYouMean('Turns', ['turns'])).toBe(' (did you mean "turns"?)');
  });
});

describe('keysAt', () => {
  const schema = z
    .object({
      turns: z.number().default(2),
      agents: z.array(z.object({ role: z.string(), model: z.string().optional() }).strict()).optional(),
      defaults: z.union([z.object({ model: z.string() }), z.object({ provider: z.string() })]).optional(),
    })
    .strict();

  it('names the keys of the object at a path', () => {
    expect(keysAt(schema, [])).toEqual(['turns', 'agents', 'defaults']);
    expect(keysAt(schema, ['agents', 0])).toEqual(['role', 'model']);
    expect(keysAt(schema, ['defaults'])).toEqual(['model', 'provider']);
    expect(keysAt(schema, ['turns'])).toEqual([]);
  });
});
