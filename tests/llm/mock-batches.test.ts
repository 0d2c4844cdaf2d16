/**
 * The mock's Files and Batch APIs over HTTP, as OpenAI documents them: uploads and the File object, the
 * batch status progression on the mock's clock (stepped by the test, no sleeps), output and error files
 * (shuffled, matched by custom_id, replies identical to synchronous ones), per-line failures and expiries,
 * input validation and its codes, the request limits, cancel, list — and the official `openai` SDK driving
 * it end to end.
 */
import OpenAI, { toFile } from 'openai';
import type { Batch } from 'openai/resources/batches';
import type { FileObject } from 'openai/resources/files';
import { afterAll, describe, expect, it } from 'vitest';
import type { MockServer, StartMockOptions } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import { startClockedMock, T0 } from '../support/clocked-mock.js';

const servers: MockServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A mock on a clock the test steps; turnaround 1,000 ms unless told. */
async function mock(options: StartMockOptions = {}) {
  const { clock, server } = await startClockedMock(options);
  const base = server.baseUrl;
  return {
    clock,
    base,
    async upload(text: string, filename = 'in.jsonl', purpose = 'batch') {
      const form = new FormData();
      form.append('purpose', purpose);
      form.append('file', new Blob([text]), filename);
      const res = await fetch(`${base}/files`, { method: 'POST', body: form });
      return { status: res.status, body: (await res.json()) as FileObject & { error?: { param: string } } };
    },
    async create(inputFileId: string, extra: Record<string, unknown> = {}) {
      const res = await fetch(`${base}/batches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          input_file_id: inputFileId,
          endpoint: '/v1/chat/completions',
          completion_window: '24h',
          ...extra,
        }),
      });
      return { status: res.status, body: (await res.json()) as Batch & { error?: { param: string; code: string } } };
    },
    async batch(id: string): Promise<Batch> {
      return (await (await fetch(`${base}/batches/${id}`)).json()) as Batch;
    },
    async cancel(id: string) {
      const res = await fetch(`${base}/batches/${id}/cancel`, { method: 'POST' });
      return { status: res.status, body: (await res.json()) as Batch & { error?: { message: string } } };
    },
    async lines(fileId: string): Promise<OutputLine[]> {
      const text = await (await fetch(`${base}/files/${fileId}/content`)).text();
      return text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as OutputLine);
    },
    async sync(body: unknown) {
      const res = await fetch(`${base}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Completion;
    },
  };
}

interface Completion {
  choices: { message: { content: string } }[];
  usage: { prompt_tokens: number; completion_tokens: number };
  service_tier: string;
}

interface OutputLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: Completion & { error?: { type: string } } } | null;
  error: { code: string; message: string } | null;
}

function body(i: number, model = 'mock-judge', seed = 'b') {
  return {
    model,
    messages: [{ role: 'user', content: `Item ${i} (${seed}): which answer is better? Reply with [[A]] or [[B]].` }],
    temperature: 0,
    max_tokens: 64,
  };
}

function jsonl(n: number, make: (i: number) => unknown = (i) => body(i)): string {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({ custom_id: `req-${i}`, method: 'POST', url: '/v1/chat/completions', body: make(i) }),
  ).join('\n');
}

describe('files', () => {
  it('uploads (multipart), describes, serves, lists and deletes a file', async () => {
    const m = await mock();
    const text = '{"custom_id":"é"}\n';
    const up = await m.upload(text);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({
      object: 'file',
      bytes: new TextEncoder().encode(text).byteLength,
      created_at: Math.floor(T0 / 1000),
      expires_at: Math.floor(T0 / 1000) + 30 * 24 * 3600,
      filename: 'in.jsonl',
      purpose: 'batch',
      status: 'processed',
    });
    expect(up.body.id).toMatch(/^file-/);
    expect(await (await fetch(`${m.base}/files/${up.body.id}`)).json()).toEqual(up.body);
    expect(await (await fetch(`${m.base}/files/${up.body.id}/content`)).text()).toBe(text);

    const other = await m.upload('notes', 'notes.txt', 'user_data');
    const all = (await (await fetch(`${m.base}/files`)).json()) as { data: FileObject[]; has_more: boolean };
    expect(all.data.map((f) => f.id)).toEqual([other.body.id, up.body.id]);
    const batchOnly = (await (await fetch(`${m.base}/files?purpose=batch`)).json()) as { data: FileObject[] };
    expect(batchOnly.data.map((f) => f.id)).toEqual([up.body.id]);
    const page = (await (await fetch(`${m.base}/files?limit=1&order=asc`)).json()) as {
      data: FileObject[];
      has_more: boolean;
      last_id: string;
    };
    expect([page.data.map((f) => f.id), page.has_more]).toEqual([[up.body.id], true]);
    const next = (await (await fetch(`${m.base}/files?limit=1&order=asc&after=${page.last_id}`)).json()) as {
      data: FileObject[];
      has_more: boolean;
    };
    expect([next.data.map((f) => f.id), next.has_more]).toEqual([[other.body.id], false]);

    const del = await fetch(`${m.base}/files/${up.body.id}`, { method: 'DELETE' });
    expect(await del.json()).toEqual({ id: up.body.id, object: 'file', deleted: true });
    expect((await fetch(`${m.base}/files/${up.body.id}`)).status).toBe(404);
    expect((await fetch(`${m.base}/files/${up.body.id}/content`)).status).toBe(404);
    expect((await fetch(`${m.base}/files/${up.body.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses what OpenAI refuses: no multipart, a bad purpose, a batch file not .jsonl or over the size limit', async () => {
    const m = await mock({ batch: { maxFileBytes: 100 } });
    const json = await fetch(`${m.base}/files`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    const purpose = await m.upload('x', 'a.jsonl', 'nonsense');
    expect([purpose.status, purpose.body.error?.param]).toEqual([400, 'purpose']);
    const txt = await m.upload('{}', 'a.txt');
    expect([txt.status, txt.body.error?.param]).toEqual([400, 'file']);
    const big = await m.upload('x'.repeat(101));
    expect([big.status, big.body.error?.param]).toEqual([400, 'file']);
    // The limit is the batch purpose's: other files may be larger.
    expect((await m.upload('x'.repeat(101), 'notes.txt', 'user_data')).status).toBe(200);
  });
});

describe('a batch', () => {
  it('moves validating → in_progress → finalizing → completed on its clock, each stamped at its own time', async () => {
    const m = await mock();
    const file = await m.upload(jsonl(20));
    const created = await m.create(file.body.id, { metadata: { wave: 'w1' } });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body).toMatchObject({
      object: 'batch',
      endpoint: '/v1/chat/completions',
      input_file_id: file.body.id,
      completion_window: '24h',
      status: 'validating',
      created_at: Math.floor(T0 / 1000),
      expires_at: Math.floor(T0 / 1000) + 24 * 3600,
      metadata: { wave: 'w1' },
      model: 'mock-judge',
    });
    expect(id).toMatch(/^batch_/);

    m.clock.t = T0 + 99;
    expect((await m.batch(id)).status).toBe('validating');
    m.clock.t = T0 + 100;
    const started = await m.batch(id);
    expect(started).toMatchObject({ status: 'in_progress', in_progress_at: Math.floor((T0 + 100) / 1000) });
    // Lines finish at seeded times during in_progress: the counts only grow.
    const seen: number[] = [];
    for (let t = 100; t < 900; t += 100) {
      m.clock.t = T0 + t;
      const b = await m.batch(id);
      expect(b.status).toBe('in_progress');
      expect(b.request_counts?.total).toBe(20);
      seen.push((b.request_counts?.completed ?? 0) + (b.request_counts?.failed ?? 0));
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen[0]).toBeLessThan(20);
    m.clock.t = T0 + 950;
    expect(await m.batch(id)).toMatchObject({ status: 'finalizing', finalizing_at: Math.floor((T0 + 900) / 1000) });
    expect((await m.batch(id)).output_file_id).toBeUndefined();
    // Observed late: still stamped at the moment it completed.
    m.clock.t = T0 + 60_000;
    const done = await m.batch(id);
    expect(done).toMatchObject({
      status: 'completed',
      completed_at: Math.floor((T0 + 1000) / 1000),
      request_counts: { total: 20, completed: 20, failed: 0 },
    });
    expect(done.error_file_id).toBeUndefined();
    const output = await m.lines(done.output_file_id ?? '');
    expect(output).toHaveLength(20);
    const prompt = output.reduce((n, l) => n + (l.response?.body.usage.prompt_tokens ?? 0), 0);
    const completion = output.reduce((n, l) => n + (l.response?.body.usage.completion_tokens ?? 0), 0);
    expect(done.usage).toMatchObject({
      input_tokens: prompt,
      output_tokens: completion,
      total_tokens: prompt + completion,
    });
    const outFile = (await (await fetch(`${m.base}/files/${done.output_file_id}`)).json()) as FileObject;
    expect(outFile).toMatchObject({ purpose: 'batch_output', filename: `batch_${id}_output.jsonl` });
  });

  it('writes output lines as documented, in no input order, each reply identical to the synchronous one', async () => {
    const m = await mock();
    const n = 30;
    const done = await runToEnd(m, jsonl(n));
    const output = await m.lines(done.output_file_id ?? '');
    for (const line of output) {
      expect(Object.keys(line).sort()).toEqual(['custom_id', 'error', 'id', 'response']);
      expect(line.id).toMatch(/^batch_req_/);
      expect(line.error).toBeNull();
      expect(line.response?.status_code).toBe(200);
      expect(line.response?.request_id).toMatch(/^req_/);
    }
    const ids = output.map((l) => l.custom_id);
    expect([...ids].sort()).toEqual(Array.from({ length: n }, (_, i) => `req-${i}`).sort());
    // Shuffled: a consumer that pairs lines with inputs by position gets them wrong.
    const inOrder = ids.filter((id, i) => id === `req-${i}`).length;
    expect(inOrder).toBeLessThan(n / 3);
    for (const line of output) {
      const i = Number(line.custom_id.slice('req-'.length));
      const sync = await m.sync(body(i));
      expect(line.response?.body.choices[0]?.message.content).toBe(sync.choices[0]?.message.content);
      expect(line.response?.body.usage.completion_tokens).toBe(sync.usage.completion_tokens);
    }
  });

  it('sends failed lines and expired lines to the error file; the batch ends expired; a resubmission draws again', async () => {
    const options = { batch: { lineFailureRate: 0.3, lineExpiryRate: 0.2, seed: 'faults' } };
    const m = await mock(options);
    const n = 60;
    const done = await runToEnd(m, jsonl(n));
    expect(done.status).toBe('expired');
    expect(done.expired_at).toBe(Math.floor((T0 + 1000) / 1000));
    const ok = await m.lines(done.output_file_id ?? '');
    const bad = await m.lines(done.error_file_id ?? '');
    const expired = bad.filter((l) => l.error?.code === 'batch_expired');
    const failed = bad.filter((l) => l.response !== null);
    expect(expired.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    expect(expired.length + failed.length).toBe(bad.length);
    for (const l of expired) {
      expect(l.response).toBeNull();
      expect(l.error?.message).toBe('This request could not be executed before the completion window expired.');
    }
    for (const l of failed) {
      expect(l.response?.status_code).toBe(500);
      expect(l.response?.body.error?.type).toBe('server_error');
      expect(l.error).toBeNull();
    }
    expect(done.request_counts).toEqual({ total: n, completed: ok.length, failed: bad.length });
    const all = [...ok, ...bad].map((l) => l.custom_id).sort();
    expect(all).toEqual(Array.from({ length: n }, (_, i) => `req-${i}`).sort());

    // The same options and input on another server: the same partition (seeded).
    const again = await mock(options);
    const twin = await runToEnd(again, jsonl(n));
    expect((await again.lines(twin.error_file_id ?? '')).map((l) => l.custom_id).sort()).toEqual(
      bad.map((l) => l.custom_id).sort(),
    );
    // Resubmitted, the bad lines draw anew: most of them now succeed.
    const retry = bad.map((l) => Number(l.custom_id.slice(4)));
    const second = await runToEnd(
      m,
      retry
        .map((i) =>
          JSON.stringify({ custom_id: `req-${i}`, method: 'POST', url: '/v1/chat/completions', body: body(i) }),
        )
        .join('\n'),
    );
    expect(second.request_counts?.completed).toBeGreaterThan(retry.length / 3);
  });

  it('fails an invalid input file with a documented code and the line of each error', async () => {
    const m = await mock();
    const line = (id: string, b: unknown = body(1), extra: Record<string, unknown> = {}) =>
      JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: b, ...extra });
    const text = [
      line('a'),
      '{not json',
      line('a'),
      line('c', body(3, 'mock-other')),
      line('d', body(4), { url: '/v1/embeddings' }),
      line('e', body(5), { method: 'GET' }),
      JSON.stringify({ method: 'POST', url: '/v1/chat/completions', body: body(6) }),
      line('g', { messages: [] }),
    ].join('\n');
    const done = await runToEnd(m, text);
    expect(done.status).toBe('failed');
    expect(done.failed_at).toBe(Math.floor((T0 + 100) / 1000));
    expect(done.output_file_id).toBeUndefined();
    expect(done.errors?.data?.map((e) => [e.line, e.code])).toEqual([
      [2, 'invalid_json_line'],
      [3, 'duplicate_custom_id'],
      [4, 'model_mismatch'],
      [5, 'url_mismatch'],
      [6, 'invalid_method'],
      [7, 'missing_required_parameter'],
      [8, 'missing_required_parameter'],
    ]);
    expect((await runToEnd(m, '')).errors?.data?.map((e) => e.code)).toEqual(['empty_file']);
  });

  it('refuses more than 50,000 requests in one file (too_many_tasks)', async () => {
    const m = await mock();
    const tiny = '{"custom_id":"x","method":"POST","url":"/v1/chat/completions","body":{"model":"m"}}';
    const done = await runToEnd(m, Array.from({ length: 50_001 }, () => tiny).join('\n'));
    expect(done.status).toBe('failed');
    expect(done.errors?.data?.map((e) => e.code)).toEqual(['too_many_tasks']);
  });

  it('answers create errors at once: unknown file, wrong purpose, endpoint, window, metadata', async () => {
    const m = await mock();
    const file = await m.upload(jsonl(1));
    const notes = await m.upload('x', 'notes.txt', 'user_data');
    const param = async (id: string, extra: Record<string, unknown> = {}) => {
      const r = await m.create(id, extra);
      return [r.status, r.body.error?.param];
    };
    expect(await param('file-nope')).toEqual([400, 'input_file_id']);
    expect(await param(notes.body.id)).toEqual([400, 'input_file_id']);
    expect(await param(file.body.id, { endpoint: '/v1/nowhere' })).toEqual([400, 'endpoint']);
    expect(await param(file.body.id, { completion_window: '1h' })).toEqual([400, 'completion_window']);
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
    expect(await param(file.body.id, { metadata: many })).toEqual([400, 'metadata']);
    expect(await param(file.body.id, { metadata: { k: 'v'.repeat(513) } })).toEqual([400, 'metadata']);
    expect((await fetch(`${m.base}/batches/batch_nope`)).status).toBe(404);
  });

  it('cancels: cancelling at once, cancelled later with the lines finished before it; done batches cannot be', async () => {
    const m = await mock({ batch: { cancelMs: 50 } });
    const n = 40;
    const file = await m.upload(jsonl(n));
    const { body: created } = await m.create(file.body.id);
    m.clock.t = T0 + 500;
    const mid = await m.batch(created.id);
    const finished = (mid.request_counts?.completed ?? 0) + (mid.request_counts?.failed ?? 0);
    expect(finished).toBeGreaterThan(0);
    expect(finished).toBeLessThan(n);
    const cancelling = await m.cancel(created.id);
    expect(cancelling.body).toMatchObject({ status: 'cancelling', cancelling_at: Math.floor((T0 + 500) / 1000) });
    expect((await m.cancel(created.id)).body.status).toBe('cancelling');
    m.clock.t = T0 + 549;
    expect((await m.batch(created.id)).status).toBe('cancelling');
    m.clock.t = T0 + 5_000;
    const cancelled = await m.batch(created.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelled_at: Math.floor((T0 + 550) / 1000) });
    expect(cancelled.request_counts).toEqual({ total: n, completed: finished, failed: 0 });
    expect(await m.lines(cancelled.output_file_id ?? '')).toHaveLength(finished);

    const early = await m.create(file.body.id);
    const none = await m.cancel(early.body.id);
    expect(none.body.status).toBe('cancelling');
    m.clock.t += 1_000;
    const cancelledEarly = await m.batch(early.body.id);
    expect(cancelledEarly.status).toBe('cancelled');
    expect(cancelledEarly.output_file_id).toBeUndefined();

    const over = await m.cancel(created.id);
    expect(over.status).toBe(400);
    expect(over.body.error?.message).toContain('cancelled');
    expect((await m.cancel('batch_nope')).status).toBe(404);
  });

  it('lists batches newest first, with after and limit', async () => {
    const m = await mock();
    const file = await m.upload(jsonl(1));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await m.create(file.body.id)).body.id);
    const list = async (q: string) =>
      (await (await fetch(`${m.base}/batches${q}`)).json()) as { data: Batch[]; has_more: boolean; last_id: string };
    const first = await list('?limit=2');
    expect([first.data.map((b) => b.id), first.has_more]).toEqual([[ids[2], ids[1]], true]);
    const rest = await list(`?limit=2&after=${first.last_id}`);
    expect([rest.data.map((b) => b.id), rest.has_more]).toEqual([[ids[0]], false]);
    expect((await fetch(`${m.base}/batches?limit=101`)).status).toBe(400);
  });
});

describe('the official openai SDK against the mock', () => {
  it('uploads, creates, polls, cancels, reads and deletes through files.* and batches.*', async () => {
    const server = await startMockServer({ batch: { turnaroundMs: 0 } });
    servers.push(server);
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'test-key', maxRetries: 0 });
    const file = await client.files.create({
      file: await toFile(Buffer.from(jsonl(3)), 'wave.jsonl'),
      purpose: 'batch',
    });
    const batch = await client.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { wave: '1' },
    });
    expect(batch.status).toBe('validating');
    // Turnaround 0: done on the next look.
    const done = await client.batches.retrieve(batch.id);
    expect(done.status).toBe('completed');
    const text = await (await client.files.content(done.output_file_id ?? '')).text();
    expect(text.trim().split('\n')).toHaveLength(3);
    const listed: string[] = [];
    for await (const b of client.batches.list({ limit: 10 })) listed.push(b.id);
    expect(listed).toContain(batch.id);
    await expect(client.batches.cancel(batch.id)).rejects.toMatchObject({ status: 400 });
    expect(await client.files.delete(file.id)).toEqual({ id: file.id, object: 'file', deleted: true });
  });
});

/** Uploads `text`, creates a batch and steps the clock past its turnaround. */
async function runToEnd(m: Awaited<ReturnType<typeof mock>>, text: string): Promise<Batch> {
  const file = await m.upload(text);
  const { body: created } = await m.create(file.body.id);
  m.clock.t += 2_000;
  return m.batch(created.id);
}
