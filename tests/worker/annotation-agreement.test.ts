/**
 * `GET /v1/rubrics/{id}/versions/{version}/agreement`: the version judges its labelled items once (202 while it
 * runs, the same run on a second read), then κ with its interval, accuracy, the confusion matrix and each
 * disagreement linked; 409 without labels, 404 for an unknown version.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RubricAgreement } from '../../src/annotation-queues/agreement-schemas.js';
import type { Queue } from '../../src/annotation-queues/schemas.js';
import { PAIRWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import type { RubricVersion } from '../../src/rubrics/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, PAIRWISE, pollUntil, testEnv } from './helpers.js';

afterEach(drainAlarms);

const question = PAIRWISE.kind === 'pairwise' ? PAIRWISE.question : '';
const pair = (i: number) => ({ id: `t-${i}`, task: { ...PAIRWISE, question: `${question} (${i})` } });

describe('a rubric version’s agreement with its labels', () => {
  it('judges the labelled items once and reports κ, accuracy, the confusion and each disagreement', async () => {
    const v = await (
      await postJson('/v1/rubrics', { ...PAIRWISE_RUBRIC_EXAMPLE, name: 'agreement' })
    ).json<RubricVersion>();
    const url = `/v1/rubrics/${v.id}/versions/1/agreement`;
    const none = await api(url);
    expect(none.status).toBe(409);
    expect((await none.json<ErrorJson>()).error.message).toContain('no labelled item');
    expect((await api(`/v1/rubrics/${v.id}/versions/9/agreement`)).status).toBe(404);

    const q = await (
      await postJson('/v1/annotation-queues', { name: 'a', rubric: v.id, items: [1, 2, 3, 4].map(pair) })
    ).json<Queue>();
    for (const [i, winner] of [
      [1, 'A'],
      [2, 'B'],
      [3, 'tie'],
    ] as const)
      expect((await postJson(`/v1/annotation-queues/${q.id}/items/t-${i}/labels`, { label: { winner } })).status).toBe(
        200,
      );

    const first = await api(url);
    expect([200, 202]).toContain(first.status);
    const started = await first.json<RubricAgreement>();
    expect(started).toMatchObject({ rubric: { id: v.id, version: 1 }, n: 3, judge: { preset: 'fastchat-pair' } });
    const done = await pollUntil(
      async () => (await api(url)).json<RubricAgreement>(),
      (a) => a.status === 'completed',
    );
    // The same run: a second read judges nothing again.
    expect(done.metaEvaluationId).toBe(started.metaEvaluationId);
    const runs = await testEnv.DB.prepare('SELECT COUNT(*) AS n FROM evaluations WHERE batch_id = ?')
      .bind(done.metaEvaluationId)
      .first<{ n: number }>();
    expect(runs?.n).toBe(3);
    expect(done.pairwise?.kappa).toHaveProperty('interval');
    expect(done.pairwise?.accuracy.value).toEqual(expect.any(Number));
    const confusion = done.pairwise?.confusion ?? [];
    expect(confusion.flat().reduce((a, b) => a + b, 0)).toBe(done.nScored);
    const correct = (confusion[0]?.[0] ?? 0) + (confusion[1]?.[1] ?? 0) + (confusion[2]?.[2] ?? 0);
    expect(done.disagreements.length).toBe((done.nScored ?? 0) - correct + (3 - (done.nScored ?? 0)));
    for (const d of done.disagreements) {
      expect(d.judge).not.toBe(d.human);
      expect(d.links.item).toBe(`/v1/annotation-queues/${q.id}/items/${d.itemId}`);
      expect((await api(d.links.evaluation)).status).toBe(200);
    }
    expect(done.pointwise).toBeNull();
  });
});
