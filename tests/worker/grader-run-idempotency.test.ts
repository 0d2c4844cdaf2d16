/**
 * `Idempotency-Key` on `fineTuning.alpha.graders.run` through the real `openai` SDK (every answer checked against
 * the served OpenAPI document): a retry with the key answers the first response and asks the LLM nothing; another
 * body is a 409; a claim still running is a 409, a dead one (older than `CLAIM_STALE_MS`) is taken over, an
 * expired key (older than `KEY_TTL_MS`) runs again. Times are the rows' own, never sleeps.
 */
import { describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { CLAIM_STALE_MS, KEY_TTL_MS, RUNNING_RETRY_MS } from '../../src/evals/grader-run-keys.js';
import { workerFetch } from './api-fetch.js';
import { mockRequests, testEnv } from './helpers.js';
import { failure, sdk } from './openai-support.js';

const client = sdk();
const TENANT = 'default';

/** A score_model grader on the mock seeded `seed` (its requests are counted per seed). */
function params(seed: string, sample = 'Paris') {
  return {
    grader: {
      type: 'score_model' as const,
      name: 'sc',
      model: mockModel({ seed }),
      input: [{ role: 'user' as const, content: 'Is "{{sample.output_text}}" the capital of France?' }],
      range: [1, 5],
    },
    model_sample: sample,
  };
}

const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

/** Sets the stored row of `key` as if claimed `ago` ms before now (with no response: still running). */
async function backdate(key: string, ago: number, pending: boolean): Promise<void> {
  const r = await testEnv.DB.prepare(
    `UPDATE grader_run_keys SET created_at = ?, response = CASE WHEN ? THEN NULL ELSE response END
     WHERE tenant = ? AND idempotency_key = ?`,
  )
    .bind(Date.now() - ago, pending ? 1 : 0, TENANT, key)
    .run();
  expect(r.meta.changes).toBe(1);
}

describe('Idempotency-Key on graders.run', () => {
  it('a retry with the key answers the first response and asks the LLM nothing; without a key each call asks', async () => {
    const seed = 'grader-run-key-replay';
    const first = await client.fineTuning.alpha.graders.run(params(seed), keyed('grader-run-1')).withResponse();
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect(await mockRequests(seed)).toBe(1);
    const again = await client.fineTuning.alpha.graders.run(params(seed), keyed('grader-run-1')).withResponse();
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data).toEqual(first.data);
    expect(await mockRequests(seed)).toBe(1);
    // No key: a new run each time (what the SDK's own retry of a lost answer does without one).
    await client.fineTuning.alpha.graders.run(params(seed));
    await client.fineTuning.alpha.graders.run(params(seed));
    expect(await mockRequests(seed)).toBe(3);
  });

  it('the key with another body is a 409 and grades nothing', async () => {
    const seed = 'grader-run-key-conflict';
    await client.fineTuning.alpha.graders.run(params(seed), keyed('grader-run-2'));
    const other = await failure(client.fineTuning.alpha.graders.run(params(seed, 'Lyon'), keyed('grader-run-2')));
    expect([other.status, other.code]).toEqual([409, 'idempotency_conflict']);
    expect(await mockRequests(seed)).toBe(1);
  });

  it('a claim still running is a 409; a dead one is taken over; an expired key runs again', async () => {
    const seed = 'grader-run-key-claims';
    const run = () => client.fineTuning.alpha.graders.run(params(seed), keyed('grader-run-3'));
    await run();
    await backdate('grader-run-3', 1000, true);
    const running = await failure(run());
    expect([running.status, running.code]).toEqual([409, 'idempotency_conflict']);
    expect(running.message).toContain('still running');
    expect(await mockRequests(seed)).toBe(1);
    await backdate('grader-run-3', CLAIM_STALE_MS + 1000, true);
    await run();
    expect(await mockRequests(seed)).toBe(2);
    await run();
    expect(await mockRequests(seed)).toBe(2);
    await backdate('grader-run-3', KEY_TTL_MS + 1000, false);
    await run();
    expect(await mockRequests(seed)).toBe(3);
  });

  it("the SDK's own retry of a key whose first run is still going waits as told, then gets the first run's answer", async () => {
    const seed = 'grader-run-key-retry';
    const key = 'grader-run-4';
    const first = await client.fineTuning.alpha.graders.run(params(seed), keyed(key));
    const stored = await testEnv.DB.prepare(
      'SELECT response FROM grader_run_keys WHERE tenant = ? AND idempotency_key = ?',
    )
      .bind(TENANT, key)
      .first<{ response: string }>();
    await backdate(key, 1000, true);
    // The SDK's retry of its POST: the first request's answer arrives while it waits (the 409 told it to retry).
    const answers: { status: number; retry: string | null; after: string | null }[] = [];
    const retrying = sdk({
      maxRetries: 1,
      fetch: async (input, init) => {
        const response = await workerFetch(input, init);
        answers.push({
          status: response.status,
          retry: response.headers.get('x-should-retry'),
          after: response.headers.get('retry-after-ms'),
        });
        if (response.status === 409)
          await testEnv.DB.prepare('UPDATE grader_run_keys SET response = ? WHERE tenant = ? AND idempotency_key = ?')
            .bind(stored?.response ?? null, TENANT, key)
            .run();
        return response;
      },
    });
    const again = await retrying.fineTuning.alpha.graders.run(params(seed), keyed(key));
    expect(answers).toEqual([
      { status: 409, retry: 'true', after: String(RUNNING_RETRY_MS) },
      { status: 200, retry: null, after: null },
    ]);
    expect(again).toEqual(first);
    expect(await mockRequests(seed)).toBe(1);
  });
});
