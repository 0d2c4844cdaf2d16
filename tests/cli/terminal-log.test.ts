/**
 * What `npm start` shows of the runtime's output: by default one readable line per ended evaluation
 * (batch items excepted), per ended batch and per ended Evals run, plus the warnings and errors, never a JSON
 * line; with `--verbose` or `LOG_LEVEL` the Worker's JSON lines from that level up. Other output always shows.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/args.js';
import type { Described, EndedBatch, EndedEvaluation, EndedRef } from '../../src/cli/ended.js';
import { outputModeOf, terminalLog } from '../../src/cli/terminal-log.js';
import type { OutputMode } from '../../src/cli/terminal-log.js';

const TS = Date.UTC(2026, 4, 1, 12, 0, 0);

function json(level: string, event: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ ts: TS, level, event, ...fields });
}

const EVALUATION: EndedEvaluation = {
  id: 'ev_1',
  status: 'succeeded',
  method: 'chateval',
  preset: 'chateval-faireval',
  batchId: null,
  winner: 'A',
  score: null,
  confidence: 0.834,
  errorCode: null,
  errorMessage: null,
  calls: 8,
  costUsd: 0.0012,
  durationMs: 4_200,
};

const BATCH: EndedBatch = {
  id: 'ba_1',
  kind: 'batch',
  status: 'completed',
  method: 'single',
  preset: 'fastchat-pair',
  itemsTotal: 3,
  succeeded: 2,
  failed: 1,
  cancelled: 0,
  costUsd: 0.04,
  durationMs: 42_100,
  completedAt: TS + 125_000,
};

/** `HH:MM:SS` of `ts` as the terminal shows it (local time). */
function clockOf(ts: number): string {
  return new Date(ts).toLocaleTimeString('en-GB', { hour12: false });
}

/**
 * Feeds `lines` through a terminal log in `mode`, the banner out, and collects what it writes once every lookup
 * answered.
 */
async function shown(
  mode: OutputMode,
  lines: string[],
  describe?: (ref: EndedRef) => Promise<Described | null>,
): Promise<string[]> {
  const out: string[] = [];
  const sink = terminalLog({ mode, write: (l) => out.push(l), ...(describe ? { describe } : {}) });
  sink.ready();
  for (const line of lines) sink(line);
  await new Promise((r) => setTimeout(r, 10));
  return out;
}

describe('output mode', () => {
  it('is quiet unless --verbose or LOG_LEVEL asks for the JSON lines', () => {
    expect(outputModeOf(false, undefined)).toEqual({ kind: 'quiet' });
    expect(outputModeOf(false, '')).toEqual({ kind: 'quiet' });
    expect(outputModeOf(true, undefined)).toEqual({ kind: 'json', level: 'debug' });
    expect(outputModeOf(false, 'WARN')).toEqual({ kind: 'json', level: 'warn' });
    expect(() => outputModeOf(false, 'loud')).toThrow(UsageError);
    expect(() => outputModeOf(false, 'loud')).toThrow('LOG_LEVEL must be one of debug, info, warn, error');
  });
});

describe('quiet output', () => {
  it('shows warnings and errors as readable lines, hides the rest of the JSON, passes other output through', async () => {
    const out = await shown({ kind: 'quiet' }, [
      json('info', 'evaluation.started', { evaluationId: 'ev_1', callsPlanned: 8 }),
      json('info', 'call.finished', { evaluationId: 'ev_1', ok: true }),
      json('warn', 'sweeper.kicked', { evaluationId: 'ev_2', status: 'running' }),
      json('error', 'webhook.consumer_error', { error: 'FOREIGN KEY constraint failed', deliveryId: null }),
      'workerd/server/server.c++:1234: error: something went wrong',
      '',
    ]);
    const time = new Date(TS).toLocaleTimeString('en-GB', { hour12: false });
    expect(out).toEqual([
      `${time} warn  sweeper.kicked  evaluationId=ev_2 status=running`,
      `${time} error webhook.consumer_error  error="FOREIGN KEY constraint failed"`,
      'workerd/server/server.c++:1234: error: something went wrong',
    ]);
  });

  it('gives an ended evaluation one line with its judge, outcome, calls, cost and time', async () => {
    const out = await shown(
      { kind: 'quiet' },
      [json('info', 'evaluation.finalized', { evaluationId: 'ev_1', status: 'succeeded', calls: 8 })],
      () => Promise.resolve({ evaluation: EVALUATION, batch: null }),
    );
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(
      /^\d\d:\d\d:\d\d evaluation ev_1 chateval-faireval succeeded: A is better \(confidence 83%\) · 8 calls · \$0\.0012 · 4\.2 s$/,
    );
  });

  it('says why a failed evaluation failed, and scores a pointwise one', async () => {
    const failed = {
      ...EVALUATION,
      status: 'failed',
      winner: null,
      confidence: null,
      errorCode: 'provider_error',
      errorMessage: 'HTTP 500',
    };
    const scored = { ...EVALUATION, id: 'ev_2', winner: null, score: 4 };
    const byId: Record<string, EndedEvaluation> = { ev_1: failed, ev_2: scored };
    const out = await shown(
      { kind: 'quiet' },
      ['ev_1', 'ev_2'].map((id) => json('info', 'evaluation.finalized', { evaluationId: id })),
      (ref) =>
        Promise.resolve({ evaluation: 'evaluationId' in ref ? (byId[ref.evaluationId] ?? null) : null, batch: null }),
    );
    expect(out[0]).toContain('evaluation ev_1 chateval-faireval failed: provider_error (HTTP 500) · 8 calls');
    expect(out[1]).toContain('evaluation ev_2 chateval-faireval succeeded: score 4 (confidence 83%)');
  });

  it('says an evaluation abstained (no winner, no score) rather than printing a score of "?"', async () => {
    const abstained = { ...EVALUATION, winner: null, score: null, confidence: 0.5 };
    const out = await shown({ kind: 'quiet' }, [json('info', 'evaluation.finalized', { evaluationId: 'ev_1' })], () =>
      Promise.resolve({ evaluation: abstained, batch: null }),
    );
    expect(out[0]).toContain('evaluation ev_1 chateval-faireval succeeded: abstained, no verdict (confidence 50%)');
    expect(out[0]).not.toContain('score ?');
  });

  it('gives a batch one line when it ends, and none per item', async () => {
    let ended = 0;
    const describe = (ref: EndedRef): Promise<Described> => {
      const last = 'evaluationId' in ref && ++ended >= 3;
      return Promise.resolve({
        evaluation: 'evaluationId' in ref ? { ...EVALUATION, id: ref.evaluationId, batchId: 'ba_1' } : null,
        batch: last || 'batchId' in ref ? BATCH : null,
      });
    };
    const out = await shown(
      { kind: 'quiet' },
      [
        ...['ev_a', 'ev_b', 'ev_c', 'ev_d'].map((id) => json('info', 'evaluation.finalized', { evaluationId: id })),
        json('info', 'batch.cancel_page', { batchId: 'ba_1', afterSeq: -1 }),
      ],
      describe,
    );
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(
      /^\d\d:\d\d:\d\d batch ba_1 fastchat-pair completed: 2 succeeded, 1 failed of 3 · \$0\.04 · 42\.1 s$/,
    );
  });

  it('gives a batch the sweeper completed late its line (no item ended then)', async () => {
    const asked: EndedRef[] = [];
    const describe = (ref: EndedRef): Promise<Described> => {
      asked.push(ref);
      return Promise.resolve({ evaluation: null, batch: 'batchId' in ref ? BATCH : null });
    };
    const out = await shown({ kind: 'quiet' }, [json('warn', 'batch.completed_late', { batchId: 'ba_1' })], describe);
    expect(asked).toEqual([{ batchId: 'ba_1' }]);
    expect(out.filter((l) => l.includes('batch ba_1 fastchat-pair completed'))).toHaveLength(1);
  });

  it("reads only the batch of an item the log names, one lookup at a time, once more after the last item's end", async () => {
    const asked: EndedRef[] = [];
    const answers: ((d: Described) => void)[] = [];
    const describe = (ref: EndedRef) => {
      asked.push(ref);
      return new Promise<Described>((resolve) => answers.push(resolve));
    };
    const out: string[] = [];
    const sink = terminalLog({ mode: { kind: 'quiet' }, write: (l) => out.push(l), describe });
    sink.ready();
    const ended = (id: string) => {
      sink(json('info', 'evaluation.finalized', { evaluationId: id, status: 'succeeded', batchId: 'ba_1' }));
    };
    const settle = () => new Promise((r) => setTimeout(r, 5));
    for (const id of ['ev_a', 'ev_b', 'ev_c']) ended(id);
    await settle();
    // Three endings while the first lookup runs: one lookup, of the batch, none of an item.
    expect(asked).toEqual([{ batchId: 'ba_1' }]);
    answers[0]?.({ evaluation: null, batch: null });
    await settle();
    // Items ended after that lookup began: one more, which finds the batch ended.
    expect(asked).toHaveLength(2);
    answers[1]?.({ evaluation: null, batch: BATCH });
    await settle();
    ended('ev_d');
    await settle();
    expect(asked).toHaveLength(2);
    expect(out).toEqual([expect.stringMatching(/ batch ba_1 fastchat-pair completed: 2 succeeded, 1 failed of 3 · /)]);
  });

  it("stamps a batch's line with the batch's own end, not the time of the item whose ending found it", async () => {
    const out = await shown(
      { kind: 'quiet' },
      [json('info', 'evaluation.finalized', { evaluationId: 'ev_a', status: 'succeeded', batchId: 'ba_1' })],
      () => Promise.resolve({ evaluation: null, batch: BATCH }),
    );
    expect(clockOf(TS)).not.toBe(clockOf(BATCH.completedAt));
    expect(out).toEqual([
      `${clockOf(BATCH.completedAt)} batch ba_1 fastchat-pair completed: 2 succeeded, 1 failed of 3 · $0.04 · 42.1 s`,
    ]);
  });

  it('names a comparison and a meta-evaluation as such', async () => {
    const kinds: Record<string, EndedBatch> = {
      cp_1: { ...BATCH, id: 'cp_1', kind: 'comparison' },
      me_1: { ...BATCH, id: 'me_1', kind: 'meta_evaluation' },
    };
    const out = await shown(
      { kind: 'quiet' },
      ['cp_1', 'me_1'].map((batchId) => json('info', 'batch.cancel_page', { batchId, afterSeq: -1 })),
      (ref) => Promise.resolve({ evaluation: null, batch: 'batchId' in ref ? (kinds[ref.batchId] ?? null) : null }),
    );
    expect(out.map((l) => l.split(' ').slice(1, 3).join(' '))).toEqual(['comparison cp_1', 'meta-evaluation me_1']);
  });

  it('gives an ended Evals run one line with its eval, status, item counts and time; a failed one its error code', async () => {
    const run = (fields: Record<string, unknown>) =>
      json('info', 'evals.run_ended', {
        runId: 'evalrun_1',
        evalId: 'eval_1',
        total: 10,
        durationMs: 4_200,
        ...fields,
      });
    const out = await shown({ kind: 'quiet' }, [
      run({ status: 'completed', passed: 8, failed: 2, errored: 0 }),
      run({ status: 'failed', passed: 0, failed: 0, errored: 0, errorCode: 'eval_deleted' }),
      run({ status: 'canceled', passed: 1, failed: 0, errored: 1 }),
    ]);
    const at = clockOf(TS);
    expect(out).toEqual([
      `${at} eval run evalrun_1 of eval_1 completed: 8 passed, 2 failed of 10 · 4.2 s`,
      `${at} eval run evalrun_1 of eval_1 failed (eval_deleted): no items graded of 10 · 4.2 s`,
      `${at} eval run evalrun_1 of eval_1 canceled: 1 passed, 1 errored of 10 · 4.2 s`,
    ]);
    // --verbose shows the JSON line itself, once.
    expect(await shown({ kind: 'json', level: 'info' }, [run({ status: 'completed' })])).toEqual([
      run({ status: 'completed' }),
    ]);
  });

  it("leaves out workerd's warning of an alarm a cancel removed (and its stack) and auth.open, which the banner said; not its other output, other NOSENTRY lines included", async () => {
    const nosentry = [
      'workerd/io/actor-sqlite.c++:970: warning: NOSENTRY SQLite alarm handler canceled with requestScheduledAlarm.; scheduledTime = 1; actorId = a',
      'stack: /x/workerd@51f50be /x/workerd@51f5bb0',
    ];
    const open = json('warn', 'auth.open', { message: '/v1 is open to anyone' });
    const other = [
      'workerd/server/server.c++:1234: warning: something else',
      'stack: /x/workerd@1',
      'workerd/io/io-context.c++:443: error: NOSENTRY in an error',
      'workerd/api/queue.c++:1: warning: NOSENTRY queue event hit timeout',
    ];
    expect(await shown({ kind: 'quiet' }, [...nosentry, open, ...other])).toEqual(other);
    // --verbose shows them all.
    expect(await shown({ kind: 'json', level: 'debug' }, [...nosentry, open, ...other])).toEqual([
      ...nosentry,
      open,
      ...other,
    ]);
  });

  it('holds what comes before the banner until it is out, in order; --verbose holds nothing', () => {
    const lines = [json('warn', 'webhook.attempt', { deliveryId: 'wd_1', outcome: 'pending' }), 'workerd: plain'];
    const out: string[] = [];
    const sink = terminalLog({ mode: { kind: 'quiet' }, write: (l) => out.push(l) });
    for (const line of lines) sink(line);
    expect(out).toEqual([]);
    out.push('banner');
    sink.ready();
    sink('after');
    sink.ready();
    expect(out).toEqual([
      'banner',
      `${clockOf(TS)} warn  webhook.attempt  deliveryId=wd_1 outcome=pending`,
      'workerd: plain',
      'after',
    ]);
    const verbose: string[] = [];
    const json2 = terminalLog({ mode: { kind: 'json', level: 'debug' }, write: (l) => verbose.push(l) });
    for (const line of lines) json2(line);
    expect(verbose).toEqual(lines);
  });

  it('falls back on the log line when the ending cannot be read (the wrangler runtime)', async () => {
    const out = await shown(
      { kind: 'quiet' },
      [json('info', 'evaluation.finalized', { evaluationId: 'ev_9', status: 'cancelled', calls: 2 })],
      () => Promise.resolve(null),
    );
    expect(out).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d evaluation ev_9 cancelled · 2 calls$/)]);
  });
});

describe('JSON output (--verbose, LOG_LEVEL)', () => {
  it('passes the JSON lines from the level up as they are, and other output too', async () => {
    const lines = [
      json('debug', 'a'),
      json('info', 'evaluation.finalized', { evaluationId: 'ev_1' }),
      json('warn', 'c'),
      json('error', 'd'),
      'plain',
    ];
    expect(await shown({ kind: 'json', level: 'debug' }, lines)).toEqual(lines);
    expect(await shown({ kind: 'json', level: 'warn' }, lines)).toEqual(lines.slice(2));
  });
});
