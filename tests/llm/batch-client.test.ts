/**
 * The Batch API client against the mock over HTTP: a whole wave (builder → custom_ids → files → batch →
 * status → results matched by custom_id) gives the same replies as synchronous calls at half the price;
 * failed and expired lines come back classified and retryable; cancel; a failed input file; HTTP failures
 * classified like chat attempts, without secrets; recovery of a lost create by metadata; streamed reads and a
 * stream that breaks off; a provider without the batch tier; Azure's paths.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { planBatchFiles } from '../../src/llm/batch-files.js';
import type { BatchApiResult, BatchClient } from '../../src/llm/batch-client.js';
import { BatchReadError, batchLineUrl, createBatchClient, isTerminalBatch } from '../../src/llm/batch-client.js';
import type { BatchLineOutcome } from '../../src/llm/batch-lines.js';
import { batchCallResult } from '../../src/llm/batch-lines.js';
import { createLlm } from '../../src/llm/client.js';
import { CustomIdIndex } from '../../src/llm/custom-id.js';
import type { StartMockOptions } from '../../src/mock-llm/node.js';
import { batchLine, buildChatBody } from '../../src/llm/request.js';
import { createBatchClientWithMock, createTieredLlmWithMock } from '../../src/mock-llm/in-process.js';
import type { LlmSettingsInput } from '../../src/llm/settings.js';
import { settingsFromEnv } from '../../src/llm/settings.js';
import { startClockedMock, T0 } from '../support/clocked-mock.js';
import { createMockState } from '../../src/mock-llm/state.js';

const KEY = 'sk-batch-test-key-4f1c9e27d0aa';

async function setup(options: StartMockOptions = {}, settings: Partial<LlmSettingsInput> = {}) {
  const { clock, server } = await startClockedMock(options);
  const llmSettings: LlmSettingsInput = {
    providers: { default: { baseUrl: server.baseUrl, apiKey: KEY, supportsBatch: true } },
    defaultModel: 'gpt-4o-mini',
    timeoutMs: 2_000,
    ...settings,
  };
  return { clock, server, settings: llmSettings, client: createBatchClient(llmSettings) };
}

function value<T>(r: BatchApiResult<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

async function collect(client: BatchClient, fileId: string | undefined): Promise<BatchLineOutcome[]> {
  if (fileId === undefined) return [];
  const out: BatchLineOutcome[] = [];
  for await (const o of value(await client.readFile(fileId))) out.push(o);
  return out;
}

function calls(n: number, seed: string): LlmCallRequest[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `pair${i}/turn1/critic`,
    agent: 'critic',
    label: 'Critic',
    stage: 'turn 1',
    messages: [
      { role: 'system', content: 'You are a careful judge.' },
      { role: 'user', content: `Item ${i} (${seed}): which answer is better? Reply with [[A]] or [[B]].` },
    ],
    temperature: 0,
    maxTokens: 128,
    parser: { type: 'fastchat-verdict' },
  }));
}

/** The lines of a wave: the one builder's bodies under custom_ids kept in an index. */
function wave(evaluationId: string, requests: readonly LlmCallRequest[], model = 'gpt-4o-mini') {
  const index = new CustomIdIndex();
  const lines = requests.map((r) =>
    batchLine(index.add(evaluationId, r.id), buildChatBody(r, { model: r.model ?? model, tier: 'batch' })),
  );
  return { index, lines };
}

describe('a wave through the Batch API', () => {
  it('gives every call the reply it gets synchronously, matched by custom_id, at the batch price', async () => {
    const { clock, client, settings, server } = await setup();
    const requests = calls(25, 'wave');
    const { index, lines } = wave('ev_wave', requests);
    const [plan, ...more] = planBatchFiles(lines);
    expect(more).toEqual([]);
    const file = value(await client.uploadFile(plan!));
    expect(file).toMatchObject({ purpose: 'batch', bytes: plan!.bytes, filename: 'tribunal-batch.jsonl' });
    const created = value(await client.createBatch(file.id, { tribunal_wave: 'ev_wave/1' }));
    expect(created).toMatchObject({ status: 'validating', metadata: { tribunal_wave: 'ev_wave/1' } });
    const statuses: string[] = [];
    let batch = created;
    for (let t = 0; !isTerminalBatch(batch); t += 100) {
      clock.t = T0 + t;
      batch = value(await client.getBatch(created.id));
      statuses.push(batch.status);
    }
    expect([...new Set(statuses)]).toEqual(['validating', 'in_progress', 'finalizing', 'completed']);
    const outcomes = await collect(client, batch.output_file_id);
    expect(outcomes.map((o) => o.customId)).not.toEqual(lines.map((l) => l.custom_id));

    const sync = createLlm({ ...settings, providers: { default: { baseUrl: server.baseUrl } } });
    let batchCost = 0;
    let syncCost = 0;
    for (const outcome of outcomes) {
      const ref = index.get(outcome.customId ?? '');
      const request = requests.find((r) => r.id === ref?.callId);
      if (!request) throw new Error(`no call for ${outcome.customId}`);
      const viaBatch = batchCallResult(request, outcome, { model: 'gpt-4o-mini', attempt: 1, latencyMs: 1000 });
      const direct = await sync(request);
      if (!viaBatch.result.ok || !direct.ok) throw new Error('both tiers should answer');
      expect(viaBatch.result.content).toBe(direct.content);
      expect(viaBatch.usage?.tier).toBe('batch');
      expect(viaBatch.result.attempts).toBe(1);
      batchCost += viaBatch.result.usage.costUsd;
      syncCost += direct.usage.costUsd;
    }
    expect(outcomes).toHaveLength(25);
    expect(batchCost).toBeGreaterThan(0);
    expect(batchCost).toBeCloseTo(syncCost / 2, 12);
    expect(value(await client.deleteFile(file.id))).toEqual({ id: file.id, object: 'file', deleted: true });
    expect(value(await client.getFile(batch.output_file_id ?? ''))).toMatchObject({ purpose: 'batch_output' });
  });

  it('reads failed and expired lines as retryable failures; every custom_id comes back once', async () => {
    const { clock, client } = await setup({ batch: { lineFailureRate: 0.25, lineExpiryRate: 0.25, seed: 'bad' } });
    const requests = calls(40, 'faults');
    const { index, lines } = wave('ev_faults', requests);
    const file = value(await client.uploadFile(lines.map((l) => `${JSON.stringify(l)}\n`).join('')));
    const created = value(await client.createBatch(file.id));
    clock.t = T0 + 1_000;
    const batch = value(await client.getBatch(created.id));
    expect(batch.status).toBe('expired');
    const good = await collect(client, batch.output_file_id);
    const bad = await collect(client, batch.error_file_id);
    expect([...good, ...bad].map((o) => o.customId).sort()).toEqual(lines.map((l) => l.custom_id).sort());
    const codes = new Set(bad.map((o) => (o.kind === 'error' ? o.error.code : 'reply')));
    expect(codes).toEqual(new Set(['batch_expired', 'provider_error']));
    for (const o of bad) {
      if (o.kind !== 'error') throw new Error('error file lines are failures');
      expect(o.retryable).toBe(true);
      expect(o.attemptKind).toBe(o.error.code === 'batch_expired' ? 'timeout' : 'http');
      const request = requests.find((r) => r.id === index.get(o.customId ?? '')?.callId)!;
      const result = batchCallResult(request, o, { attempt: 2, latencyMs: 1000 });
      expect(result.retryable).toBe(true);
      expect(result.result).toMatchObject({ ok: false, attempts: 2, error: { code: o.error.code } });
      if (!result.result.ok)
        expect(result.result.error.attempts).toEqual([
          {
            attempt: 2,
            kind: o.attemptKind,
            code: o.error.code,
            ...(o.error.status !== undefined ? { status: o.error.status } : {}),
            latencyMs: 1000,
          },
        ]);
    }
  });

  it('cancels: the lines finished before the cancel come back; the rest are in neither file', async () => {
    const { clock, client } = await setup({ batch: { cancelMs: 10 } });
    const { lines } = wave('ev_cancel', calls(30, 'cancel'));
    const file = value(await client.uploadFile(planBatchFiles(lines)[0]!));
    const created = value(await client.createBatch(file.id));
    clock.t = T0 + 500;
    expect(value(await client.cancelBatch(created.id)).status).toBe('cancelling');
    clock.t = T0 + 600;
    const batch = value(await client.getBatch(created.id));
    expect(batch.status).toBe('cancelled');
    const got = await collect(client, batch.output_file_id);
    expect(got.length).toBe(batch.request_counts?.completed);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(30);
    const missing = lines.map((l) => l.custom_id).filter((id) => !got.some((o) => o.customId === id));
    expect(missing.length).toBe(30 - got.length);
    const again = await client.cancelBatch(created.id);
    expect(again).toMatchObject({ ok: false, error: { code: 'bad_request', status: 400, retryable: false } });
  });

  it('sees an invalid input file fail with the provider errors', async () => {
    const { clock, client } = await setup();
    const { lines } = wave('ev_two_models', calls(2, 'models'));
    lines[1]!.body.model = 'gpt-4o';
    const file = value(await client.uploadFile(lines.map((l) => JSON.stringify(l)).join('\n')));
    const created = value(await client.createBatch(file.id));
    clock.t = T0 + 100;
    const batch = value(await client.getBatch(created.id));
    expect(batch.status).toBe('failed');
    expect(batch.errors?.data?.[0]).toMatchObject({ code: 'model_mismatch', line: 2 });
  });

  it('finds a batch by its metadata (a create whose answer was lost), across pages', async () => {
    const { client } = await setup();
    const file = value(await client.uploadFile(`${JSON.stringify(wave('ev_find', calls(1, 'find')).lines[0])}\n`));
    for (let i = 0; i < 120; i++) value(await client.createBatch(file.id, { tribunal_wave: `w${i}` }));
    const found = value(await client.findBatch((b) => b.metadata?.tribunal_wave === 'w3'));
    expect(found?.metadata).toEqual({ tribunal_wave: 'w3' });
    expect(value(await client.findBatch((b) => b.metadata?.tribunal_wave === 'nope'))).toBeNull();
    const page = value(await client.listBatches({ limit: 2 }));
    expect([page.data.length, page.hasMore, page.lastId]).toEqual([2, true, page.data[1]?.id]);
  });
});

describe('an upload whose answer was lost', () => {
  it('is stored by the mock (uploadLossRate) and found by its name and size with GET /files', async () => {
    const { client } = await setup({ batch: { uploadLossRate: 1 } });
    const text = `${JSON.stringify(wave('ev_lost', calls(1, 'lost')).lines[0])}\n`;
    const lost = await client.uploadFile(text, 'wave-lost.jsonl');
    expect(lost).toMatchObject({ ok: false, error: { status: 500, retryable: true } });
    // Newer files of another name, and of the same name but another size (pages go through the same reader as
    // findBatch's, whose test crosses pages).
    await client.uploadFile(text, 'other.jsonl');
    await client.uploadFile(`${text}\n`, 'wave-lost.jsonl');
    const found = value(await client.findFile('wave-lost.jsonl', new TextEncoder().encode(text).byteLength));
    expect(found).toMatchObject({ object: 'file', purpose: 'batch', filename: 'wave-lost.jsonl' });
    expect(value(await client.findFile('wave-lost.jsonl', 1))).toBeNull();
    const page = value(await client.listFiles({ purpose: 'batch', limit: 2, order: 'asc' }));
    expect([page.data[0]?.id, page.hasMore, page.lastId]).toEqual([found?.id, true, page.data[1]?.id]);
  });
});

describe('failures of the Batch API', () => {
  it('are classified like chat attempts: 404, 400, 429 with Retry-After, 5xx, network, timeout', async () => {
    let fault: 'none' | '429' | '503' | 'hang' = 'none';
    const { client, settings } = await setup({
      around: async (request, next) => {
        if (fault === '429')
          return Response.json(
            { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } },
            {
              status: 429,
              headers: { 'retry-after': '7' },
            },
          );
        if (fault === '503') return new Response('upstream unavailable', { status: 503 });
        if (fault === 'hang') await new Promise((r) => setTimeout(r, 1_000));
        return next(request);
      },
    });
    expect(await client.getBatch('batch_nope')).toMatchObject({
      ok: false,
      error: { code: 'not_found', status: 404, retryable: false },
    });
    expect(await client.createBatch('file-nope')).toMatchObject({
      ok: false,
      error: { code: 'bad_request', status: 400, retryable: false },
    });
    fault = '429';
    expect(await client.getBatch('batch_x')).toMatchObject({
      ok: false,
      error: { code: 'rate_limited', status: 429, retryable: true, retryAfterMs: 7000 },
    });
    fault = '503';
    expect(await client.listBatches()).toMatchObject({ ok: false, error: { code: 'provider_error', retryable: true } });
    fault = 'hang';
    const slow = createBatchClient({ ...settings, timeoutMs: 100 });
    expect(await slow.getBatch('batch_x')).toMatchObject({ ok: false, error: { code: 'timeout', retryable: true } });
    fault = 'none';
    const gone = createBatchClient({
      ...settings,
      providers: { default: { baseUrl: 'http://127.0.0.1:9/v1', supportsBatch: true } },
    });
    expect(await gone.uploadFile('{}\n')).toMatchObject({ ok: false, error: { code: 'network', retryable: true } });
  });

  it('never quote the key, even when the provider echoes it', async () => {
    const { client } = await setup({
      around: (request) =>
        Promise.resolve(
          Response.json(
            { error: { message: `Incorrect API key provided: ${request.headers.get('authorization') ?? ''}` } },
            { status: 401 },
          ),
        ),
    });
    const r = await client.getBatch('batch_x');
    expect(r).toMatchObject({ ok: false, error: { code: 'auth', status: 401 } });
    expect(JSON.stringify(r)).not.toContain(KEY);
  });

  it('refuses an upload over the size limit, and reads a stream that breaks off as a BatchReadError', async () => {
    const { client, settings } = await setup({ batch: { maxFileBytes: 100 } });
    const big = await client.uploadFile('x'.repeat(101));
    expect(big).toMatchObject({ ok: false, error: { code: 'bad_request', status: 400 } });
    if (!big.ok) expect(big.error.message).toMatch(/too large/);
    const line = '{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{"model":"m"}}\n';
    const small = value(await client.uploadFile(line));
    expect(small.bytes).toBeLessThanOrEqual(100);
    // The connection drops halfway through the body (the real response, cut by the transport).
    const cutting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(bytes.slice(0, bytes.length / 2));
          c.error(new TypeError('terminated: other side closed'));
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const read = value(await createBatchClient(settings, undefined, { fetch: cutting }).readFile(small.id));
    const err: unknown = await (async () => {
      let lines = 0;
      try {
        for await (const _ of read) lines += 1;
      } catch (e) {
        return e;
      }
      return `no error after ${lines} lines`;
    })();
    expect(err).toBeInstanceOf(BatchReadError);
    expect((err as BatchReadError).code).toBe('network');
    // Read again, whole: the one line.
    const again = await collect(client, small.id);
    expect(again.map((o) => o.customId)).toEqual(['a']);
  });

  it('answers tier_unsupported without a request for a provider not declared supportsBatch', async () => {
    let requests = 0;
    const { settings, server } = await setup({
      around: (request, next) => {
        requests += 1;
        return next(request);
      },
    });
    const client = createBatchClient({ ...settings, providers: { default: { baseUrl: server.baseUrl } } });
    expect(await client.uploadFile('{}\n')).toMatchObject({ ok: false, error: { code: 'tier_unsupported' } });
    expect(await client.getBatch('b')).toMatchObject({ ok: false, error: { code: 'tier_unsupported' } });
    expect(await createBatchClient(settings, 'nobody').getBatch('b')).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(requests).toBe(0);
  });
});

describe('the in-process mock (Node benches and CLIs)', () => {
  it('answers the batch client without a port, beside a tiered LLM function on the same mock state', async () => {
    const settings = settingsFromEnv({ LLM_BASE_URL: 'mock', LLM_SUPPORTS_BATCH: 'true' }, { inProcessMock: true });
    const mockState = createMockState();
    const client = createBatchClientWithMock(settings, undefined, { mockState, mock: { batch: { turnaroundMs: 0 } } });
    const llm = createTieredLlmWithMock(settings, { mockState });
    const requests = calls(3, 'in-process');
    const { index, lines } = wave('ev_local', requests, 'mock-judge');
    const file = value(await client.uploadFile(planBatchFiles(lines)[0]!));
    const created = value(await client.createBatch(file.id));
    const batch = value(await client.getBatch(created.id));
    expect(batch.status).toBe('completed');
    for (const o of await collect(client, batch.output_file_id)) {
      const request = requests.find((r) => r.id === index.get(o.customId ?? '')?.callId)!;
      const direct = await llm({ ...request, model: 'mock-judge' });
      expect(o.kind === 'reply' && o.content).toBe(direct.result.ok && direct.result.content);
    }
  });
});

describe('Azure OpenAI', () => {
  it('puts api-version on every path, the key in api-key, and /chat/completions as the endpoint', async () => {
    const seen: { url: string; headers: Headers; body: string }[] = [];
    const fake: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push({ url: request.url, headers: request.headers, body: await request.text() });
      return Response.json({ id: 'x', object: 'batch', status: 'validating' });
    };
    const provider = {
      baseUrl: 'https://res.openai.azure.com/openai',
      apiKey: KEY,
      azureApiVersion: '2024-10-21',
      supportsBatch: true,
    };
    const client = createBatchClient({ providers: { default: provider } }, undefined, { fetch: fake });
    await client.uploadFile('{}\n');
    await client.createBatch('file-1');
    await client.getBatch('batch_1');
    expect(seen.map((s) => s.url)).toEqual([
      'https://res.openai.azure.com/openai/files?api-version=2024-10-21',
      'https://res.openai.azure.com/openai/batches?api-version=2024-10-21',
      'https://res.openai.azure.com/openai/batches/batch_1?api-version=2024-10-21',
    ]);
    expect(seen[0]?.headers.get('api-key')).toBe(KEY);
    expect(seen[0]?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(JSON.parse(seen[1]?.body ?? '{}')).toMatchObject({
      endpoint: '/chat/completions',
      completion_window: '24h',
    });
    expect(batchLineUrl(provider)).toBe('/chat/completions');
    expect(batchLineUrl({})).toBe('/v1/chat/completions');
  });
});
