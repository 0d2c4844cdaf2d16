/**
 * Erased content is gone from the local state's files, byte for byte: batch-tier evaluations (their prompts
 * went through a wave coordinator and the mock's Batch API) carry a unique marker in their task, are erased
 * (`DELETE` after the verdict, `DELETE` while the line is out in a provider batch, a `storeContent: false`
 * tenant's erasure at the end), and then no file under the stack's `--persist-to` folder holds the marker:
 * not D1's files, not any Durable Object's SQLite files (the items', the coordinators'), their journals,
 * their free pages, nor the cache and KV folders.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { LocalStack } from '../../../src/cli/local-stack.js';
import { startLocalStack } from '../../../src/cli/local-stack.js';
import type { MockServer } from '../../../src/mock-llm/node.js';
import { startMockServer } from '../../../src/mock-llm/node.js';
import { WAIT_MS } from '../../support/patience.js';
import { seededState } from '../../support/seed-state.js';
import { preparedWorker } from '../../support/worker-ready.js';

const ADMIN_TOKEN = 'e2e-erasure-admin-7c1d';
const persistTo = seededState(join(mkdtempSync(join(tmpdir(), 'tribunal-erasure-')), 'state'));
let mock: MockServer | undefined;
let stack: LocalStack | undefined;

afterAll(async () => {
  await stack?.stop();
  await mock?.close();
});

/**
 * A SQLite database as it reads once its write-ahead log is checkpointed into it: the main file's pages with
 * each page's last committed frame of the log (`<file>-wal`, https://sqlite.org/fileformat.html#the_write_ahead_log)
 * written over them, cut to the size of the last commit. Its bytes are the live rows, the free pages and the
 * free space inside pages: what SQLite keeps, where `-wal` also keeps every earlier version of a page.
 */
function checkpointed(path: string): Buffer {
  const main = readFileSync(path);
  let wal: Buffer;
  try {
    wal = readFileSync(`${path}-wal`);
  } catch {
    return main;
  }
  if (wal.length < 32) return main;
  const pageSize = wal.readUInt32BE(8);
  const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  const pages = new Map<number, Buffer>();
  let size = Math.ceil(main.length / pageSize);
  let pending = new Map<number, Buffer>();
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    // A frame of an earlier generation of the log (other salts) ends the current one.
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    pending.set(wal.readUInt32BE(at), wal.subarray(at + 24, at + 24 + pageSize));
    const commitSize = wal.readUInt32BE(at + 4);
    if (commitSize > 0) {
      for (const [n, page] of pending) pages.set(n, page);
      pending = new Map();
      size = commitSize;
    }
  }
  const image = Buffer.alloc(size * pageSize);
  main.copy(image, 0, 0, Math.min(main.length, image.length));
  for (const [n, page] of pages) if (n <= size) page.copy(image, (n - 1) * pageSize);
  return image;
}

/**
 * Every store under `dir` whose bytes contain `marker` (relative paths): each SQLite database as checkpointed
 * (its `-wal` and `-shm` files are read through it), every other file as it is.
 */
function storesHolding(dir: string, marker: string): string[] {
  const needle = Buffer.from(marker, 'utf8');
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.sqlite-wal') || name.endsWith('.sqlite-shm')) continue;
      else if ((name.endsWith('.sqlite') ? checkpointed(path) : readFileSync(path)).includes(needle))
        out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out;
}

/** A task whose every text carries `marker`. */
function task(marker: string): Record<string, string> {
  return {
    kind: 'pairwise',
    question: `Which answer is kinder? ${marker}`,
    answerA: `Say thank you. ${marker}`,
    answerB: `Say nothing. ${marker}`,
  };
}

describe('erasure leaves no trace in the local state', () => {
  it('a batch-tier evaluation deleted, deleted mid-wave, or of a tenant that stores no content: its marker in no file', async () => {
    // A provider batch takes 1.5 s: long enough to DELETE an evaluation while its line is out.
    mock = await startMockServer({ port: 0, batch: { turnaroundMs: 1500 } });
    stack = await startLocalStack({
      port: 0,
      persistTo,
      llmBaseUrl: mock.baseUrl,
      llmApiKey: 'local',
      llmModel: 'mock-judge',
      secrets: { ADMIN_TOKEN },
      crons: false,
      vars: {
        LLM_SUPPORTS_BATCH: 'true',
        BATCH_WAVE_QUIET_MS: '50',
        BATCH_POLL_MIN_MS: '100',
        BATCH_POLL_MAX_MS: '200',
      },
      worker: preparedWorker(),
      reuseRuntime: true,
    });
    const { url } = stack;
    const admin = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
      const r = await fetch(`${url}/v1/admin${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status).toBe(201);
      return (await r.json()) as Record<string, unknown>;
    };
    const keyOf = async (limits: Record<string, unknown>): Promise<string> => {
      const tenant = await admin('/tenants', { name: 'erasure', limits });
      return String((await admin('/keys', { tenantId: tenant.id, label: 'e2e' })).key);
    };
    const keeps = await keyOf({});
    const storesNone = await keyOf({ storeContent: false });
    const submit = async (key: string, marker: string): Promise<string> => {
      const r = await fetch(`${url}/v1/evaluations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          preset: 'fastchat-pair',
          config: { calibration: { enabled: false } },
          tier: 'batch',
          cache: 'off',
          task: task(marker),
        }),
      });
      expect(r.status).toBe(202);
      return ((await r.json()) as { id: string }).id;
    };
    const view = async (key: string, id: string): Promise<{ status: string; progress?: { callsDone: number } }> =>
      (await (await fetch(`${url}/v1/evaluations/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
        status: string;
      };
    const ended = async (key: string, id: string): Promise<void> => {
      await vi.waitFor(
        async () => {
          expect((await view(key, id)).status).toBe('succeeded');
        },
        { timeout: WAIT_MS, interval: 100 },
      );
    };
    const remove = async (key: string, id: string): Promise<void> => {
      const r = await fetch(`${url}/v1/evaluations/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(r.status).toBe(204);
    };

    const markers = { deleted: randomUUID(), deletedMidWave: randomUUID(), storesNone: randomUUID() };
    // The control: an evaluation kept as it is, whose marker the search must find.
    const kept = randomUUID();
    await ended(keeps, await submit(keeps, kept));
    const done = await submit(keeps, markers.deleted);
    const unstored = await submit(storesNone, markers.storesNone);
    await ended(keeps, done);
    await ended(storesNone, unstored);
    await remove(keeps, done);

    // Deleted while its line is out in a provider batch: the mock has the batch, the item has no result yet.
    const midWave = await submit(keeps, markers.deletedMidWave);
    await vi.waitFor(
      async () => {
        const r = await fetch(`${mock?.baseUrl ?? ''}/batches?limit=100`, { headers: { authorization: 'Bearer x' } });
        const page = (await r.json()) as { data: { status: string }[] };
        expect(page.data.some((b) => b.status === 'validating' || b.status === 'in_progress')).toBe(true);
      },
      { timeout: WAIT_MS, interval: 50 },
    );
    await remove(keeps, midWave);
    // The coordinator still sees the batch to its end (a cancel); its last step then runs.
    await vi.waitFor(
      async () => {
        const r = await fetch(`${mock?.baseUrl ?? ''}/batches?limit=100`, { headers: { authorization: 'Bearer x' } });
        const page = (await r.json()) as { data: { status: string }[] };
        expect(page.data.every((b) => ['completed', 'cancelled', 'failed', 'expired'].includes(b.status))).toBe(true);
      },
      { timeout: WAIT_MS, interval: 100 },
    );

    // The runtime stopped: every file it wrote is on disk as it left it.
    await stack.stop();
    stack = undefined;
    const held = Object.fromEntries(Object.entries(markers).map(([k, m]) => [k, storesHolding(persistTo, m)] as const));
    expect(held).toEqual({ deleted: [], deletedMidWave: [], storesNone: [] });
    expect(storesHolding(persistTo, kept).length).toBeGreaterThan(0);
  }, 150_000);
});
