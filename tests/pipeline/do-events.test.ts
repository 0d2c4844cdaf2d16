/**
 * The Durable Object's event building (durable-objects/evaluation/events.ts): pure functions, run in
 * Node. What a subscriber gets, in which order, for a running and for an ended evaluation.
 */
import { describe, expect, it } from 'vitest';
import type { StatusView, StoredResultView } from '../../durable-objects/evaluation/events.js';
import {
  callFinishedEvent,
  notRunEvent,
  replayEvents,
  terminalEvents,
} from '../../durable-objects/evaluation/events.js';
import type { VerdictSummary } from '../../src/pipeline/events.js';

const usage = { promptTokens: 3, completionTokens: 2, cachedPromptTokens: 0, estimated: false, costUsd: 0 };

const running: StatusView = {
  evaluationId: 'ev1',
  status: 'running',
  callsDone: 2,
  callsPlanned: 3,
  error: null,
  at: 50,
};

const stored: StoredResultView[] = [
  {
    callId: 'c0',
    agent: 'a',
    label: 'A',
    stage: 's1',
    result: { id: 'c0', ok: true, content: 'hi', model: 'm', usage, latencyMs: 7 },
    startedAt: 10,
    finishedAt: 20,
    latencyMs: 7,
  },
  {
    callId: 'c1',
    agent: 'b',
    label: 'B',
    stage: 's1',
    result: { id: 'c1', ok: false, error: { code: 'timeout', message: 'slow' } },
    startedAt: 12,
    finishedAt: 30,
    latencyMs: null,
  },
];

const verdict: VerdictSummary = {
  method: 'toy',
  taskKind: 'pairwise',
  winner: 'A',
  votes: [{ agent: 'a', label: 'A', parsed: true, winner: 'A' }],
  confidence: 1,
  positionFlip: null,
  unparsed: [],
  calls: 2,
  usage,
  details: {},
};

describe('replayEvents', () => {
  it('running: status, each stored call as a started/finished pair, then the calls in flight; no end', () => {
    const events = replayEvents({
      status: running,
      ended: false,
      verdict: null,
      stored,
      inFlight: [{ callId: 'c2', agent: 'a', label: 'A', stage: 's2', startedAt: 40 }],
    });
    expect(events.map((e) => `${e.type}:${'callId' in e.data ? e.data.callId : ''}`)).toEqual([
      'status:',
      'call.started:c0',
      'call.finished:c0',
      'call.started:c1',
      'call.finished:c1',
      'call.started:c2',
    ]);
    expect(events[0]).toEqual({
      type: 'status',
      data: { evaluationId: 'ev1', status: 'running', callsDone: 2, callsPlanned: 3, at: 50 },
    });
  });

  it('ended and succeeded: no leading status; votes, the verdict and the terminal status close it', () => {
    const end: StatusView = { ...running, status: 'succeeded', at: 60 };
    const events = replayEvents({ status: end, ended: true, verdict, stored, inFlight: [] });
    expect(events.map((e) => e.type)).toEqual([
      'call.started',
      'call.finished',
      'call.started',
      'call.finished',
      'vote',
      'verdict',
      'status',
    ]);
    expect(events.at(-2)).toEqual({ type: 'verdict', data: { evaluationId: 'ev1', verdict } });
    expect(events.at(-1)?.data).toMatchObject({ status: 'succeeded' });
  });
});

describe('event builders', () => {
  it('call.finished carries the message and its usage, or the error; latency falls back to the measured span', () => {
    const [ok, failed] = stored.map((s) => callFinishedEvent('ev1', s));
    expect(ok?.data).toMatchObject({ ok: true, content: 'hi', model: 'm', usage, latencyMs: 7 });
    expect(ok?.data).not.toHaveProperty('error');
    expect(failed?.data).toMatchObject({ ok: false, error: { code: 'timeout' }, latencyMs: 18 });
    expect(failed?.data).not.toHaveProperty('content');
    expect(failed?.data).not.toHaveProperty('usage');
  });

  it('a failed end has no verdict even when one is passed; its error is in the status', () => {
    const error = { code: 'cancelled', message: 'by the caller' };
    const events = terminalEvents({ ...running, status: 'cancelled', error }, verdict);
    expect(events).toEqual([
      {
        type: 'status',
        data: { evaluationId: 'ev1', status: 'cancelled', callsDone: 2, callsPlanned: 3, error, at: 50 },
      },
    ]);
  });

  it('an evaluation the object did not run reports no calls', () => {
    expect(notRunEvent('ev2', 'queued', null, 5)).toEqual({
      type: 'status',
      data: { evaluationId: 'ev2', status: 'queued', callsDone: 0, callsPlanned: 0, at: 5 },
    });
  });
});
