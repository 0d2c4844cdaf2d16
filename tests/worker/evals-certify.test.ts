/**
 * Certified mode on an Evals run (`certify: {agreement, risk}`), through the real `openai` SDK (which sends the
 * extension field as given) and the typed client: a Tribunal judge grader whose task names a stored pairwise
 * rubric is calibrated on the rubric version's labelled items when the run is created (503 `calibration_pending`
 * meanwhile, 409 `labels_needed` with too few), its results carry `certified`, an abstention makes the item
 * `error`, and the run shows the `guarantee`; a model grader that is no rubric judge is a 400 naming `certify`.
 */
import { APIError } from 'openai';
import type OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createTribunalClient } from '../../src/client/index.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { workerFetch } from './api-fetch.js';
import { clear, labelledRubric, unsure } from './certify-support.js';
import { drainAlarms, pollUntil } from './helpers.js';
import { failure, judgeModel, sdk } from './openai-support.js';
import { WAIT_MS } from '../support/patience.js';

afterEach(drainAlarms);

const client = sdk();
const typed = createTribunalClient({ baseUrl: 'http://tribunal.test/', fetch: (r) => workerFetch(r) });
const CERTIFY = { agreement: 0.8, risk: 0.05 };
type Run = OpenAI.Evals.RunRetrieveResponse & { guarantee: unknown };
type Result = OpenAI.Evals.Runs.OutputItemListResponse['results'][number] & {
  certified?: boolean;
  certification?: { outcome: string; stage: number | null };
  label?: string;
  error?: { kind: string; message: string };
};

const ITEM_SCHEMA = {
  type: 'object',
  properties: { question: { type: 'string' }, a: { type: 'string' }, b: { type: 'string' } },
};

/** A label model grader that is a Tribunal judge on `rubric`, the pair given by the item. */
const judgeGrader = (rubric: string, seed: string) => ({
  type: 'label_model' as const,
  name: 'pair',
  model: judgeModel('fastchat-pair', { seed }),
  input: [
    {
      role: 'user' as const,
      content: JSON.stringify({
        task: { kind: 'pairwise', question: '{{item.question}}', answerA: '{{item.a}}', answerB: '{{item.b}}' },
        rubric,
      }),
    },
  ],
  labels: ['A', 'B', 'tie'],
  passing_labels: ['A'],
});

/** A deterministic grader beside it: exact, so certified mode leaves it as it is. */
const ASKED = {
  type: 'string_check' as const,
  name: 'asked',
  input: '{{item.question}}',
  reference: '?',
  operation: 'like' as const,
};

async function evalOf(criteria: unknown[]): Promise<string> {
  const ev = await client.evals.create({
    data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA },
    testing_criteria: criteria as never,
  });
  return ev.id;
}

const itemsOf = (pairs: ReturnType<typeof clear>[]) => ({
  type: 'jsonl' as const,
  source: {
    type: 'file_content' as const,
    content: pairs.map((p) => ({ item: { question: p.question, a: p.answerA, b: p.answerB } })),
  },
});

/** Creates the run, sent again while its judge graders' calibration is pending (503, nothing created). */
async function certifiedRun(evalId: string, body: object): Promise<Run> {
  const attempt = () =>
    client.evals.runs.create(evalId, body as never).catch((e: unknown) => {
      if (e instanceof APIError && e.status === 503) {
        expect(e.code).toBe('calibration_pending');
        return null;
      }
      throw e;
    });
  return (await pollUntil(attempt, (r) => r !== null, WAIT_MS, 200)) as Run;
}

const ended = (evalId: string, runId: string) =>
  pollUntil(
    async () => (await client.evals.runs.retrieve(runId, { eval_id: evalId })) as Run,
    (r) => ['completed', 'failed', 'canceled'].includes(r.status),
    WAIT_MS,
    100,
  );

describe('certify on an Evals run', () => {
  it("answers a judge grader's items where the calibrated threshold holds, abstains elsewhere, and shows the guarantee", async () => {
    const rubric = await labelledRubric('evals-certify', 30);
    const evalId = await evalOf([judgeGrader(rubric, 'evals-certify'), ASKED]);
    const pairs = [clear('ec1'), clear('ec2'), unsure('eu1'), unsure('eu2'), unsure('eu3'), unsure('eu4')];
    const created = await certifiedRun(evalId, { data_source: itemsOf(pairs), certify: CERTIFY });
    const guarantee = { agreement: 0.8, risk: 0.05, coverage: 1, calibrationSize: 30 };
    expect(created.guarantee).toEqual(guarantee);
    const run = await ended(evalId, created.id);
    expect(run).toMatchObject({ status: 'completed', guarantee });
    const items = (await client.evals.runs.outputItems.list(run.id, { eval_id: evalId })).data;
    expect(items).toHaveLength(pairs.length);
    for (const item of items) {
      const results = item.results as Result[];
      const pair = results.find((r) => r.name === 'pair');
      const asked = results.find((r) => r.name === 'asked');
      // The exact grader runs as it is: no certified-mode fields.
      expect(asked).toMatchObject({ passed: true });
      expect(asked).not.toHaveProperty('certified');
      if (item.datasource_item_id < 2) {
        // Tagged pairs: both orders agree, the threshold holds, answer A is certified.
        expect(pair).toMatchObject({ certified: true, certification: { outcome: 'answered' }, label: 'A' });
        expect(item.status).toBe('pass');
      } else if (pair?.certified === false) {
        expect(pair.certification?.outcome).toBe('abstained');
        expect(pair.error?.kind).toBe('model_grader_abstained');
        expect(pair.error?.message).toMatch(/abstained/);
        expect(item.status).toBe('error');
      } else {
        expect(pair).toMatchObject({ certified: true, certification: { outcome: 'answered' } });
      }
    }
    const abstained = items.filter((i) => (i.results as Result[]).some((r) => r.certified === false));
    expect(abstained.length).toBeGreaterThan(0);
    expect(run.result_counts.errored).toBe(abstained.length);

    // The typed client sends `certify` too; the judge is calibrated already, so the run is created at once.
    const again = await typed.request('post', '/v1/evals/{eval_id}/runs', {
      params: { eval_id: evalId },
      body: { data_source: itemsOf([clear('ec3')]), certify: CERTIFY },
    });
    if (again.status !== 200) throw new Error(`expected 200, got ${String(again.status)}`);
    expect(again.body.guarantee).toEqual(guarantee);
  });

  it('too few labels is a 409 saying how many more; a model grader that is no rubric judge is a 400 naming certify', async () => {
    const few = await labelledRubric('evals-certify-few', 2);
    const evalId = await evalOf([judgeGrader(few, 'evals-certify-few')]);
    const e = await failure(
      client.evals.runs.create(evalId, { data_source: itemsOf([clear('f')]), certify: CERTIFY } as never),
    );
    expect(e).toMatchObject({ status: 409, code: 'labels_needed' });
    expect((e.error as { labelsNeeded?: number }).labelsNeeded).toBe(28);
    expect(e.message).toContain('label 28 more');

    const plain = {
      ...judgeGrader(few, 'evals-certify-plain'),
      name: 'plain',
      model: mockModel({ seed: 'evals-certify-plain' }),
    };
    const plainEval = await evalOf([plain, ASKED]);
    const refused = await failure(
      client.evals.runs.create(plainEval, { data_source: itemsOf([clear('p')]), certify: CERTIFY } as never),
    );
    expect(refused).toMatchObject({ status: 400, param: 'certify' });
    expect(refused.message).toMatch(/grader "plain" \(testing_criteria\.0\)/);
    // Without certify the same run is accepted: the refusal is certified mode's alone.
    expect((await client.evals.runs.create(plainEval, { data_source: itemsOf([clear('p')]) })).status).toBe('queued');
  });
});
