/**
 * `service_tier: batch` on an Evals run, through the real `openai` SDK against the Worker and the mock's Batch
 * API (100 ms a batch here): the sampler's and the model graders' calls go in waves, each a provider batch
 * (the sample's wave, then its graders'), every call billed once at tier `batch`; a pass repeated after the
 * end calls and bills nothing again; a Tribunal judge as a grader's model runs its evaluation at tier `batch`
 * and the run waits for it without holding a worker, and the item counts once against the monthly cap.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { holdMockBatchApi, pollUntil, testEnv } from './helpers.js';
import { judgeModel, sdk } from './openai-support.js';
import { usageSince } from '../../src/tenants/quota.js';
import { WAIT_MS } from '../support/patience.js';

const client = sdk();
type Run = OpenAI.Evals.RunRetrieveResponse;
const MOCK_ORIGIN = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
holdMockBatchApi();

const ITEMS = [
  { question: 'Capital of France?', answer: 'Paris' },
  { question: 'Largest planet?', answer: 'Jupiter' },
  { question: 'Author of Hamlet?', answer: 'William Shakespeare' },
];
const ITEM_SCHEMA = {
  type: 'object',
  properties: { question: { type: 'string' }, answer: { type: 'string' } },
};

/** The provider batches the mock has created so far. */
async function batchesCreated(): Promise<number> {
  return (await (await fetch(`${MOCK_ORIGIN}/_test/batch`)).json<{ creates: number }>()).creates;
}

function ended(evalId: string, runId: string): Promise<Run> {
  return pollUntil(
    () => client.evals.runs.retrieve(runId, { eval_id: evalId }),
    (r) => ['completed', 'failed', 'canceled'].includes(r.status),
    WAIT_MS,
    100,
  );
}

/** The usage rows of a run's own calls (its items' ledger rows), by tier. */
async function billedTiers(runId: string): Promise<string[]> {
  const { results } = await testEnv.DB.prepare(
    `SELECT u.tier FROM usage u JOIN evaluations e ON e.id = u.evaluation_id
     WHERE json_extract(e.metadata, '$.run_id') = ? ORDER BY u.tier`,
  )
    .bind(runId)
    .all<{ tier: string }>();
  return results.map((r) => r.tier);
}

async function outputItems(evalId: string, runId: string): Promise<OpenAI.Evals.Runs.OutputItemListResponse[]> {
  const items: OpenAI.Evals.Runs.OutputItemListResponse[] = [];
  for await (const i of client.evals.runs.outputItems.list(runId, { eval_id: evalId })) items.push(i);
  return items;
}

describe('service_tier batch on a run', () => {
  it('samples and grades through provider batches, each call billed once at the batch tier', async () => {
    const sampler = mockModel({ seed: 'evals-batch-sampler' });
    const ev = await client.evals.create({
      data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: [
        {
          type: 'label_model',
          name: 'verdict',
          model: mockModel({ seed: 'evals-batch-grader' }),
          input: [{ role: 'user', content: 'Q: {{item.question}} A: {{sample.output_text}} Ref: {{item.answer}}' }],
          labels: ['correct', 'incorrect'],
          passing_labels: ['correct'],
        },
      ],
    });
    const before = await batchesCreated();
    const created = (await client.evals.runs.create(ev.id, {
      data_source: {
        type: 'completions',
        model: sampler,
        input_messages: { type: 'template', template: [{ role: 'user', content: 'Answer: {{item.question}}' }] },
        source: { type: 'file_content', content: ITEMS.map((item) => ({ item })) },
      },
      service_tier: 'batch',
    } as never)) as Run & { service_tier: string };
    expect(created.service_tier).toBe('batch');
    const run = await ended(ev.id, created.id);
    expect(run.status).toBe('completed');
    expect(run.result_counts.total).toBe(3);
    expect(run.result_counts.errored).toBe(0);
    const items = await outputItems(ev.id, run.id);
    expect(items).toHaveLength(3);
    for (const i of items) {
      expect(i.sample.output[0]?.content).toBeTruthy();
      expect(['correct', 'incorrect']).toContain((i.results[0] as { label?: string } | undefined)?.label);
    }
    // The samples' wave, then the graders' (each item's grader waits for its sample): two provider batches.
    expect((await batchesCreated()) - before).toBe(2);
    expect(await billedTiers(run.id)).toEqual(Array(6).fill('batch'));

    // A pass repeated after the end (a worker resuming it) replays every answer: no batch, no bill.
    await testEnv.DB.prepare("UPDATE eval_runs SET status = 'in_progress', lease_until = 1 WHERE id = ?")
      .bind(run.id)
      .run();
    await testEnv.DB.prepare('DELETE FROM eval_run_items WHERE run_id = ? AND idx = 2').bind(run.id).run();
    const again = await ended(ev.id, run.id);
    expect(again.result_counts).toEqual(run.result_counts);
    expect((await batchesCreated()) - before).toBe(2);
    expect(await billedTiers(run.id)).toEqual(Array(6).fill('batch'));
  });

  it("runs a Tribunal judge grader's evaluation at the batch tier, and waits for its verdict", async () => {
    const ev = await client.evals.create({
      data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: [
        {
          type: 'score_model',
          name: 'judge',
          model: judgeModel('debate-summeval', { seed: 'evals-batch-judge' }),
          input: [
            {
              role: 'user',
              content: '[SOURCE]\n{{item.question}}\n[OUTPUT]\n{{sample.output_text}}\n[ASPECT]\ncorrectness (1-5)',
            },
          ],
          range: [1, 5],
          pass_threshold: 3,
        },
      ],
    });
    const source = {
      type: 'file_content' as const,
      content: ITEMS.map((item) => ({ item, sample: { output_text: item.answer } })),
    };
    const counted = async () => (await usageSince([testEnv.DB], 'default', 0)).evaluations;
    const rows = async () =>
      (await testEnv.DB.prepare(`SELECT count(*) AS n FROM evaluations`).first<{ n: number }>())?.n ?? 0;
    const [countedBefore, rowsBefore] = [await counted(), await rows()];
    const created = await client.evals.runs.create(ev.id, {
      data_source: { type: 'jsonl', source },
      service_tier: 'batch',
    } as never);
    const run = await ended(ev.id, created.id);
    expect(run.status).toBe('completed');
    const { results } = await testEnv.DB.prepare(
      `SELECT e.tier, e.score FROM evaluations e
       WHERE e.idempotency_key LIKE ? ORDER BY e.idempotency_key`,
    )
      .bind(`${run.id}:%`)
      .all<{ tier: string; score: number }>();
    expect(results.map((r) => r.tier)).toEqual(['batch', 'batch', 'batch']);
    const items = await outputItems(ev.id, run.id);
    expect(items.map((i) => i.results[0]?.score)).toEqual(results.map((r) => r.score));
    // Each item is one evaluation against the monthly cap: its ledger row and its judge's evaluation are two
    // rows, and the judge's is counted by the item's.
    expect((await rows()) - rowsBefore).toBe(6);
    expect((await counted()) - countedBefore).toBe(3);
  });
});
