/**
 * `labelledItems` (src/annotation-queues/labelled.ts), the human labels other features read: the consensus or
 * adjudicated label of each labelled item of a queue, or of every queue of a rubric version, with pending and
 * disagreed items left out, judges never counted, and other tenants' queues never seen.
 */
import { describe, expect, it } from 'vitest';
import { labelledItems } from '../../src/annotation-queues/labelled.js';
import { createQueue, postLabel } from '../../src/annotation-queues/service.js';
import type { CreateQueueRequest } from '../../src/annotation-queues/schemas.js';
import { PAIRWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import type { RubricVersion } from '../../src/rubrics/schemas.js';
import { postJson } from './api-fetch.js';
import { PAIRWISE, testEnv } from './helpers.js';

const TENANT = 'default';
const pair = (i: number) => ({
  id: `it-${i}`,
  task: { ...PAIRWISE, question: `${PAIRWISE.kind === 'pairwise' ? PAIRWISE.question : ''} (${i})` },
});

async function rubric(): Promise<RubricVersion> {
  const r = await postJson('/v1/rubrics', PAIRWISE_RUBRIC_EXAMPLE);
  expect(r.status, await r.clone().text()).toBe(201);
  return r.json<RubricVersion>();
}

function body(rubricRef: string, over: Partial<CreateQueueRequest> = {}): CreateQueueRequest {
  return { name: 'refunds', rubric: rubricRef, items: [1, 2, 3, 4].map(pair), labelsPerItem: 2, blind: false, ...over };
}

const label = (winner: 'A' | 'B' | 'tie', adjudicate = false) => ({ label: { winner }, adjudicate });

describe('labelledItems', () => {
  it("gives each labelled item's consensus or adjudicated label, for a queue and for its rubric version", async () => {
    const v = await rubric();
    const { queue } = await createQueue(testEnv, TENANT, body(`${v.id}@1`), null);
    expect(queue).toMatchObject({ rubric: { id: v.id, version: 1 }, kind: 'pairwise', labelsPerItem: 2 });
    const at = (item: string, annotator: string, l: ReturnType<typeof label>) =>
      postLabel(testEnv, TENANT, queue.id, item, l, annotator);
    await at('it-1', 'ann', label('A'));
    await at('it-1', 'bob', label('A'));
    await at('it-2', 'ann', label('A'));
    await at('it-2', 'bob', label('B'));
    const split = await at('it-3', 'ann', label('A'));
    expect(split.status).toBe('pending');
    await at('it-3', 'bob', label('B'));
    const settled = await at('it-3', 'carol', label('B', true));
    expect(settled).toMatchObject({ status: 'adjudicated', label: { winner: 'B' } });
    await at('it-4', 'ann', label('B'));

    const items = await labelledItems(testEnv, TENANT, { queueId: queue.id });
    expect(items.map((i) => [i.itemId, i.human, i.status, i.resolution])).toEqual([
      ['it-1', 'A', 'labelled', 'unanimous'],
      ['it-3', 'B', 'adjudicated', 'adjudicated'],
    ]);
    expect(items[0]).toMatchObject({
      queueId: queue.id,
      rubric: { id: v.id, version: 1 },
      task: pair(1).task,
      label: { winner: 'A' },
      annotators: ['ann', 'bob'],
      provenance: 'human',
      evaluationId: null,
    });
    expect(items[1]?.annotators).toEqual(['ann', 'bob', 'carol']);
    expect(await labelledItems(testEnv, TENANT, { rubricId: v.id, version: 1 })).toEqual(items);
    expect(await labelledItems(testEnv, TENANT, { rubricId: v.id })).toEqual(items);
    expect(await labelledItems(testEnv, TENANT, { rubricId: v.id, version: 2 })).toEqual([]);
    // Another tenant sees none of it.
    expect(await labelledItems(testEnv, 'tn_othertenant0000', { rubricId: v.id })).toEqual([]);
    await expect(labelledItems(testEnv, 'tn_othertenant0000', { queueId: queue.id })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('replaces an annotator’s earlier label, and refuses one that does not fit the rubric, naming the field', async () => {
    const v = await rubric();
    const { queue } = await createQueue(testEnv, TENANT, body(v.id, { labelsPerItem: 1 }), null);
    await postLabel(testEnv, TENANT, queue.id, 'it-1', label('A'), 'ann');
    const fixed = await postLabel(testEnv, TENANT, queue.id, 'it-1', label('tie'), 'ann');
    expect(fixed.labels.map((l) => [l.annotator, l.label, l.provenance])).toEqual([
      ['ann', { winner: 'tie' }, 'human'],
    ]);
    await expect(
      postLabel(testEnv, TENANT, queue.id, 'it-2', { label: { score: 3 }, adjudicate: false }, 'ann'),
    ).rejects.toMatchObject({ status: 400, issues: [{ path: 'label.winner' }, { path: 'label.score' }] });
    const [only] = await labelledItems(testEnv, TENANT, { queueId: queue.id });
    expect(only).toMatchObject({ itemId: 'it-1', human: 'tie', resolution: 'single' });
  });
});
