import { afterEach, describe, expect, it } from 'vitest';
import { evaluationStub } from '../../src/evaluations/stub.js';
import type { Task } from '../../src/engine/task.js';
import {
  countRows,
  drainAlarms,
  engineVersionIn,
  insertJob,
  mockRequests,
  PAIRWISE,
  POINTWISE,
  storedVerdict,
  testEnv,
  waitForEnd,
  storedTranscript,
} from './helpers.js';
import { getMethod } from '../../src/engine/registry.js';
import { engineVersionOf } from '../../src/engine/version.js';

afterEach(drainAlarms);

const CASES: { method: string; preset: string; task: Task }[] = [
  { method: 'single', preset: 'fastchat-pair', task: PAIRWISE },
  { method: 'ensemble', preset: 'ensemble-chateval-roles', task: PAIRWISE },
  { method: 'chateval', preset: 'chateval-faireval', task: PAIRWISE },
  { method: 'more', preset: 'more-mtbench', task: PAIRWISE },
  { method: 'samre', preset: 'samre-mtbench', task: PAIRWISE },
  { method: 'debate', preset: 'debate-summeval', task: POINTWISE },
];

describe('submit → verdict through the real queue and the mock LLM over HTTP', () => {
  for (const c of CASES) {
    it(`${c.method} (${c.preset})`, async () => {
      const { id } = await insertJob({ preset: c.preset, task: c.task });
      await testEnv.JOBS.send({ id });
      const row = await waitForEnd(id);
      expect(row.status, row.error_message ?? '').toBe('succeeded');

      const stored = await storedVerdict(id);
      expect(stored).not.toBeNull();
      const v = stored!;
      expect(v.method).toBe(c.method);
      expect(v.transcript).toBeUndefined();
      // One usage row and one transcript row per call, each call made exactly once.
      expect(await countRows('usage', id)).toBe(v.calls);
      expect(await countRows('transcripts', id)).toBe(v.calls);
      expect(await mockRequests(id)).toBe(v.calls);
      expect(row.calls_done).toBe(v.calls);
      expect(row.started_at).not.toBeNull();
      expect(row.finished_at).not.toBeNull();

      const snap = await evaluationStub(testEnv, id).snapshot();
      expect(snap?.status).toBe('succeeded');
      expect(snap?.callsDone).toBe(v.calls);
      // Pinned engine version, in the object and in D1.
      expect(snap?.engineVersion).toBe(engineVersionOf(getMethod(c.method)));
      expect(await engineVersionIn(id)).toBe(engineVersionOf(getMethod(c.method)));
      // The transcript carries each reply's usage; together they are the verdict's usage.
      const transcript = await storedTranscript(id);
      expect(transcript.map((t) => t.seq)).toEqual([...Array(v.calls).keys()]);
      const tokens = transcript.reduce((n, t) => n + t.usage.promptTokens + t.usage.completionTokens, 0);
      expect(tokens).toBe(v.usage.promptTokens + v.usage.completionTokens);
      expect(tokens).toBeGreaterThan(0);
    });
  }
});
