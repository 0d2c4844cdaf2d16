/**
 * The Batch API client inside workerd, against the mock over real HTTP: the input file goes up as a
 * multipart `FormData` with a `Blob` (workerd's own), the batch is created from the deployment's settings
 * (`LLM_SUPPORTS_BATCH`), polled to its end, and its output file streamed back line by line, each reply
 * matched to its call by custom_id and identical to the synchronous reply.
 */
import { WAIT_MS } from '../support/patience.js';
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { planBatchFiles } from '../../src/llm/batch-files.js';
import type { BatchApiResult } from '../../src/llm/batch-client.js';
import { createBatchClient, isTerminalBatch } from '../../src/llm/batch-client.js';
import type { BatchLineOutcome } from '../../src/llm/batch-lines.js';
import { createLlm } from '../../src/llm/client.js';
import { CustomIdIndex } from '../../src/llm/custom-id.js';
import { batchLine, buildChatBody } from '../../src/llm/request.js';
import { llmEnvOf, settingsFromEnv } from '../../src/llm/settings.js';
import { holdMockBatchApi, testEnv } from './helpers.js';

function value<T>(r: BatchApiResult<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

holdMockBatchApi();

describe('the Batch API client in workerd', () => {
  it('uploads with FormData, creates, polls, streams the results and deletes, against the mock', async () => {
    // A copy of the bindings (settings are cached per environment object) with the batch tier declared.
    const settings = settingsFromEnv(llmEnvOf({ ...testEnv, LLM_SUPPORTS_BATCH: 'true' }));
    expect(settings.providers.default?.supportsBatch).toBe(true);
    const client = createBatchClient(settings);
    const seed = `workerd-batch-${Date.now()}`;
    const requests: LlmCallRequest[] = Array.from({ length: 6 }, (_, i) => ({
      id: `item${i}/judge`,
      agent: 'judge',
      label: 'Judge',
      stage: 'verdict',
      messages: [{ role: 'user', content: `Item ${i} (${seed}): which answer is better? Reply [[A]] or [[B]].` }],
      temperature: 0,
      maxTokens: 64,
      parser: { type: 'fastchat-verdict' },
    }));
    const index = new CustomIdIndex();
    const lines = requests.map((r) =>
      batchLine(index.add('ev_workerd', r.id), buildChatBody(r, { model: 'mock-judge', tier: 'batch' })),
    );
    const [plan] = planBatchFiles(lines);
    const file = value(await client.uploadFile(plan!, 'wave-1.jsonl'));
    expect(file).toMatchObject({ object: 'file', purpose: 'batch', filename: 'wave-1.jsonl', bytes: plan!.bytes });
    const created = value(await client.createBatch(file.id, { tribunal_wave: seed }));
    expect(created.status).toBe('validating');

    // The mock completes a batch in about a second (its default turnaround): poll until it says so.
    await expect
      .poll(async () => isTerminalBatch(value(await client.getBatch(created.id))), { timeout: WAIT_MS, interval: 100 })
      .toBe(true);
    const batch = value(await client.getBatch(created.id));
    expect(batch.status).toBe('completed');
    expect(batch.request_counts).toEqual({ total: 6, completed: 6, failed: 0 });

    const outcomes: BatchLineOutcome[] = [];
    for await (const o of value(await client.readFile(batch.output_file_id ?? ''))) outcomes.push(o);
    expect(outcomes.map((o) => o.customId).sort()).toEqual(lines.map((l) => l.custom_id).sort());
    const sync = createLlm(settings);
    for (const o of outcomes) {
      const request = requests.find((r) => r.id === index.get(o.customId ?? '')?.callId);
      if (!request || o.kind !== 'reply') throw new Error(`unexpected line ${JSON.stringify(o)}`);
      const direct = await sync({ ...request, model: 'mock-judge' });
      expect(direct.ok && direct.content).toBe(o.content);
    }
    expect(value(await client.findBatch((b) => b.metadata?.tribunal_wave === seed))?.id).toBe(created.id);
    expect(value(await client.deleteFile(file.id)).deleted).toBe(true);
  });
});
