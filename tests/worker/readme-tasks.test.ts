/**
 * The README's conversation task (`json example=conversation-task`) is judged as written: a two-turn
 * conversation in `messages` with each answer's own first turn, which FastChat's multi-turn template takes
 * (the README states it; this keeps the example valid and its claim true).
 */
import { afterEach, describe, expect, it } from 'vitest';
import readme from '../../README.md?raw';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, waitForEnd } from './helpers.js';

afterEach(drainAlarms);

/** The README's JSON block tagged `example=<name>`, parsed. */
function readmeJson(name: string): Record<string, unknown> {
  const m = new RegExp('```json example=' + name + '\\n([\\s\\S]*?)```').exec(readme);
  if (!m?.[1]) throw new Error(`README.md has no \`json example=${name}\` block`);
  return JSON.parse(m[1]) as Record<string, unknown>;
}

describe("the README's conversation task", () => {
  it("is accepted and judged with FastChat's multi-turn template in both orders", async () => {
    const body = readmeJson('conversation-task');
    const r = await postJson('/v1/evaluations', body);
    expect(r.status, await r.clone().text()).toBe(202);
    const { id } = await r.json<{ id: string }>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const { verdict } = await (
      await api(`/v1/evaluations/${id}`)
    ).json<{
      verdict: { details: { orders: Record<string, { multiTurn?: boolean }> } };
    }>();
    // Both presentation orders judged the second turn with the multi-turn template.
    expect(Object.values(verdict.details.orders).map((o) => o.multiTurn)).toEqual([true, true]);
  });
});
