/**
 * `npm start` in its default terminal mode (one readable line per ended evaluation or batch, read from
 * the local D1 as each evaluation ends) through a 500-item batch: every item ends, `/health` keeps
 * answering and the batch gets its line. The runtime once read D1 through Miniflare's synchronous
 * proxy, holding its only thread while workerd, its stdout pipe full of log lines that thread no longer
 * drained, blocked writing them: a 200-item batch stopped both within seconds.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, startProgram, untilRunning } from '../../support/npm-start.js';
import type { NpmStart } from '../../support/npm-start.js';
import { seededState } from '../../support/seed-state.js';

const ITEMS = 500;

describe("npm start's program under a burst", () => {
  let run: NpmStart;
  let url: string;

  beforeAll(async () => {
    const persist = seededState(join(mkdtempSync(join(tmpdir(), 'tribunal-start-burst-')), 'state'));
    // npm's own part (its banner, its shell) is start.test.ts's: here its program, without npm's start.
    run = startProgram(['--port', '0', '--mock-port', '0', '--persist-to', persist, '--no-watch'], {
      LOG_LEVEL: '',
      // Four times wrangler.toml's items in flight: endings (and log lines) come faster, as on a faster machine.
      BATCH_CONCURRENCY: '64',
    });
    ({ url } = await untilRunning(run));
  });

  afterAll(killAll);

  it(`ends every item of a ${ITEMS}-item batch in the default terminal mode, answering /health throughout`, async () => {
    expect(run.output()).toContain('Output: one line per ended evaluation, batch or Evals run');
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      task: { kind: 'pairwise', question: `(${i}) 2 + 2?`, answerA: 'Four, since 2 + 2 = 4.', answerB: 'Five.' },
    }));
    const r = await fetch(`${url}/v1/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ preset: 'fastchat-pair', config: { calibration: { enabled: false } }, items }),
    });
    expect(r.status).toBe(202);
    const { id } = (await r.json()) as { id: string };
    // Each poll must be answered (a stuck runtime never answers: the fetch's own timeout fails the test).
    await expect
      .poll(
        async () => {
          const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(20_000) });
          expect(health.status).toBe(200);
          const view = (await (
            await fetch(`${url}/v1/batches/${id}`, { signal: AbortSignal.timeout(20_000) })
          ).json()) as { counts: { succeeded: number } };
          return view.counts.succeeded;
        },
        { timeout: 240_000, interval: 1_000 },
      )
      .toBe(ITEMS);
    // The terminal read the ended batch from D1 and said so in one line.
    await expect
      .poll(() => run.output(), { timeout: 30_000, interval: 200 })
      .toMatch(
        new RegExp(`^\\d\\d:\\d\\d:\\d\\d batch ${id} fastchat-pair completed: ${ITEMS} succeeded of ${ITEMS} · `, 'm'),
      );
  }, 300_000);
});
