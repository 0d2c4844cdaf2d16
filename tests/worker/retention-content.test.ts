/**
 * A tenant that stores no content (`storeContent: false`, src/retention/content.ts): past the verdict only
 * the task's hashes, the verdict and usage are kept, and no log line carries the task's texts.
 */
import { readTaskJson } from '../../src/evaluations/content.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterEnding } from '../../src/ending-plan.js';
import { sha256Hex } from '../../src/http/request-hash.js';
import { sweepRetention } from '../../src/retention/sweep.js';
import { ERASED_ERROR_MESSAGE } from '../../src/retention/content.js';
import { countRows, drainAlarms, insertJob, testEnv, waitForEnd } from './helpers.js';
import { as, asAdmin, keyed, newKey, newTenant } from './tenants-helpers.js';
import { endedEvaluation } from './webhooks-helpers.js';

afterEach(drainAlarms);

const TASK = {
  kind: 'pairwise' as const,
  question: 'unused',
  answerA: 'Canberra is the capital of Australia.',
  answerB: 'Sydney is the capital of Australia.',
};

/** The task where it is kept: D1 (a hashed one is kept on the row), else the evaluation's object. */
const taskOf = async (id: string) => (await readTaskJson(testEnv, testEnv.DB, id)) as Record<string, unknown>;

describe('storeContent: false', () => {
  it('after the verdict: task texts become their sha-256, transcript and object storage go; verdict and usage stay; no log carries content', async () => {
    const tenant = await newTenant({ storeContent: false });
    const { key } = await newKey(tenant);
    const secret = `A secret question nobody may keep ${Date.now()}`;
    const lines: string[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      }),
    );
    let id = '';
    try {
      ({ id } = await insertJob({ preset: 'fastchat-pair', task: { ...TASK, question: secret }, tenant }));
      await testEnv.JOBS.send({ id });
      expect((await waitForEnd(id)).status).toBe('succeeded');
      // The final write's own step erases the content once the verdict is committed: no sweep needed.
      await expect
        .poll(
          async () =>
            (
              await testEnv.DB.prepare('SELECT content_erased_at AS at FROM evaluations WHERE id = ?')
                .bind(id)
                .first<{ at: number | null }>()
            )?.at ?? null,
        )
        .not.toBeNull();
    } finally {
      for (const s of spies) s.mockRestore();
    }
    const task = await taskOf(id);
    expect(task).toEqual({
      kind: 'pairwise',
      question: `sha256:${await sha256Hex(secret)}`,
      answerA: `sha256:${await sha256Hex(TASK.answerA)}`,
      answerB: `sha256:${await sha256Hex(TASK.answerB)}`,
    });
    expect(await countRows('transcripts', id)).toBe(0);
    expect(await countRows('verdicts', id)).toBe(1);
    expect(await countRows('usage', id)).toBeGreaterThan(0);
    // Through the API: the verdict is there, the task's texts and the transcript are not.
    const ev = await (await keyed(`/v1/evaluations/${id}`, as(key))).json<{ verdict: { winner: string } | null }>();
    expect(ev.verdict?.winner).toMatch(/^(A|B|tie)$/);
    // The task shows what is kept: its kind and each text's hash.
    expect((await (await keyed(`/v1/evaluations/${id}/task`, as(key))).json<{ task: unknown }>()).task).toEqual(task);
    const transcript = await (await keyed(`/v1/evaluations/${id}/transcript`, as(key))).json<{ messages: unknown[] }>();
    expect(transcript.messages).toEqual([]);
    expect(lines.join('\n')).not.toContain(secret);
    // Idempotent: nothing left for the sweep.
    expect((await sweepRetention(testEnv, Date.now())).contentErased).toBe(0);
  });

  it("a failed evaluation keeps its error's code, not its message (which can quote a provider's reply)", async () => {
    const tenant = await newTenant({ storeContent: false });
    const { id } = await insertJob({ preset: 'fastchat-pair', task: TASK, tenant, mock: { permanent: 401 } });
    await testEnv.JOBS.send({ id });
    expect((await waitForEnd(id)).status).toBe('failed');
    const row = async () =>
      testEnv.DB.prepare('SELECT error_code, error_message, content_erased_at FROM evaluations WHERE id = ?')
        .bind(id)
        .first<{ error_code: string; error_message: string | null; content_erased_at: number | null }>();
    await expect.poll(async () => (await row())?.content_erased_at ?? null).not.toBeNull();
    expect(await row()).toMatchObject({ error_code: 'auth', error_message: ERASED_ERROR_MESSAGE });
  });

  it("an ending's after-commit step erases at once; a tenant that stores content keeps it", async () => {
    const free = await newTenant({ storeContent: false });
    const keeps = await newTenant({ storeContent: true });
    const a = await endedEvaluation(free);
    const b = await endedEvaluation(keeps);
    const kept = await taskOf(b);
    await afterEnding(testEnv, a);
    await afterEnding(testEnv, b);
    expect(String((await taskOf(a)).question)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await taskOf(b)).toEqual(kept);
    // Switching the tenant to storeContent false (admin API): the sweep erases what it already holds.
    const patched = await asAdmin(`/v1/admin/tenants/${keeps}`, {
      method: 'PATCH',
      body: { limits: { storeContent: false } },
    });
    expect(patched.status).toBe(200);
    await sweepRetention(testEnv, Date.now());
    expect(String((await taskOf(b)).question)).toMatch(/^sha256:/);
  });
  it("the sweep clears the Evals verdict cache of a tenant that stores no content, and others' past their retention", async () => {
    const free = await newTenant({ storeContent: false });
    const keeps = await newTenant({ storeContent: true, retentionDays: 7 });
    const now = Date.now();
    const day = 86_400_000;
    const entry = (tenant: string, key: string, at: number) =>
      testEnv.DB.prepare(
        `INSERT INTO eval_verdict_cache (tenant, key, result, cost_usd, created_at) VALUES (?, ?, '{}', 0.001, ?)`,
      ).bind(tenant, key, at);
    await testEnv.DB.batch([
      entry(free, 'fresh', now),
      entry(keeps, 'fresh', now - day),
      entry(keeps, 'old', now - 8 * day),
    ]);
    expect((await sweepRetention(testEnv, now)).evalCacheEntries).toBe(2);
    const { results } = await testEnv.DB.prepare('SELECT tenant, key FROM eval_verdict_cache WHERE tenant IN (?, ?)')
      .bind(free, keeps)
      .all<{ tenant: string; key: string }>();
    expect(results).toEqual([{ tenant: keeps, key: 'fresh' }]);
  });
});
