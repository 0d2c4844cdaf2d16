/**
 * The evaluation object's `pending` bookkeeping (durable-objects/evaluation/pending.ts) answers from memory
 * what it knows: a call never launched has no row, and only a flex wait sets `not_before`, so a call's launch
 * asks the table nothing on the standard tier (with debates in flight every statement of a call is on the
 * thread the other debates' results wait for). What a new instance finds (rows an earlier one left) is read
 * once.
 */
import { describe, expect, it } from 'vitest';
import { PendingCalls } from '../../durable-objects/evaluation/pending.js';
import { newTestId, runInTestObject } from './helpers.js';

describe("the object's pending calls", () => {
  it('reads the table once per instance, and a call never launched or waiting costs no read', async () => {
    const out = await runInTestObject(newTestId('ev_pending'), (_o, state) => {
      const sql = state.storage.sql;
      const seen: string[] = [];
      const recording = {
        exec: (query: string, ...bindings: unknown[]) => {
          seen.push(query);
          return sql.exec(query, ...bindings);
        },
      } as unknown as SqlStorage;
      const reads = () => seen.filter((q) => q.startsWith('SELECT')).length;
      // A new object: the table is known empty.
      const fresh = new PendingCalls(recording, true);
      const answers = [fresh.waits('a', Date.now()), fresh.get('a')];
      fresh.launch('a', 'standard', [], 1);
      answers.push(fresh.waits('b', Date.now()), fresh.get('b'));
      const freshReads = reads();
      const row = fresh.get('a');
      fresh.launch('b', 'standard', [], 2);
      fresh.settle('b');
      fresh.settle('never');
      const writes = seen.filter((q) => !q.startsWith('SELECT')).length;
      // A later instance over the same table (after an eviction): `a` is still out.
      seen.length = 0;
      const later = new PendingCalls(recording);
      const laterRow = later.get('a');
      const laterNone = [later.get('c'), later.get('d'), later.waits('a', 5), later.waits('c', 5)];
      const laterReads = reads();
      // A flex wait: asked again from then on.
      later.park('a', 'flex', [], Date.now() + 60_000);
      const waitsNow = later.waits('a', Date.now());
      const waiting = [...later.waiting(Date.now()).keys()];
      return { answers, freshReads, row, writes, laterRow, laterNone, laterReads, waitsNow, waiting };
    });
    expect(out.answers).toEqual([false, null, false, null]);
    expect(out.freshReads).toBe(0);
    expect(out.row).toMatchObject({ call_id: 'a', launched_at: 1, first_at: 1, not_before: null });
    // Two launches and one settle: `never` has no row to delete.
    expect(out.writes).toBe(3);
    expect(out.laterRow).toMatchObject({ call_id: 'a', launched_at: 1 });
    expect(out.laterNone).toEqual([null, null, false, false]);
    // The ids, `a`'s row, whether any row waits: each once.
    expect(out.laterReads).toBe(3);
    expect(out.waitsNow).toBe(true);
    expect(out.waiting).toEqual(['a']);
  });
});
