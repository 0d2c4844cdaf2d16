/**
 * The evaluation page's model (src/web/app/debate.ts), fed with events built by the Durable Object's own
 * event builders (durable-objects/evaluation/event-builders.ts): lanes and stages, live parse failures, the
 * verdict's unparsed replies, the transcript merge, and a reconnect's full replay changing nothing.
 */
import { describe, expect, it } from 'vitest';
import type { StatusView, StoredResultView } from '../../durable-objects/evaluation/event-builders.js';
import { callStartedEvent, replayEvents } from '../../durable-objects/evaluation/event-builders.js';
import type { EvaluationEvent, VerdictSummary } from '../../src/evaluations/live-events.js';
import type { Transcript } from '../../src/web/app/types.js';
import {
  applyEvent,
  applyTranscript,
  callsDone,
  emptyDebate,
  groupCalls,
  laneOf,
  splitCallId,
} from '../../src/web/app/debate.js';

const usage = { promptTokens: 10, completionTokens: 5, cachedPromptTokens: 0, estimated: false, costUsd: 0.0002 };
const ok = (id: string, content: string) => ({
  id,
  ok: true as const,
  content,
  model: 'mock-judge',
  usage,
  latencyMs: 5,
});

/** A calibrated two-agent, two-turn debate where the Critic's last swapped reply never parses. */
function stored(): StoredResultView[] {
  const call = (
    callId: string,
    agent: string,
    label: string,
    stage: string,
    content: string,
    t: number,
  ): StoredResultView => ({
    callId,
    agent,
    label,
    stage,
    result: ok(callId, content),
    startedAt: t,
    finishedAt: t + 5,
    latencyMs: 5,
  });
  return [
    call('ab/turn1/agent0', 'agent0', 'General Public', 'turn 1', 'AB first', 1),
    call('ba/turn1/agent0', 'agent0', 'General Public', 'turn 1', 'BA first', 2),
    call('ab/turn1/agent1', 'agent1', 'Critic', 'turn 1', 'AB second', 3),
    call('ba/turn1/agent1', 'agent1', 'Critic', 'turn 1', 'BA second', 4),
    call('ab/turn2/agent0', 'agent0', 'General Public', 'turn 2', 'Score 1: 4\nScore 2: 9', 5),
    call('ba/turn2/agent1', 'agent1', 'Critic', 'turn 2', 'no scores here', 6),
    call('ba/turn2/agent1#1', 'agent1', 'Critic', 'turn 2', 'still none', 7),
  ];
}

const verdict: VerdictSummary = {
  method: 'chateval',
  taskKind: 'pairwise',
  winner: 'B',
  scores: { a: 4, b: 9 },
  votes: [
    { agent: 'agent0', label: 'General Public', order: 'AB', winner: 'B', scores: { a: 4, b: 9 }, parsed: true },
    { agent: 'agent1', label: 'Critic', order: 'BA', parsed: false },
  ],
  confidence: 0.5,
  positionFlip: true,
  unparsed: [
    { callId: 'ba/turn2/agent1', agent: 'agent1', stage: 'turn 2', reason: 'no "The score of Assistant 1:" line' },
  ],
  calls: 7,
  usage,
  details: {},
};

const end: StatusView = {
  evaluationId: 'ev_1',
  status: 'succeeded',
  callsDone: 7,
  callsPlanned: 6,
  error: null,
  at: 20,
};

function fold(events: readonly EvaluationEvent[], state = emptyDebate()) {
  for (const e of events) applyEvent(state, e);
  return state;
}

describe('folding the live events', () => {
  it('groups calls by presentation order and stage, in the order they happened', () => {
    const s = fold(replayEvents({ status: end, ended: true, verdict, stored: stored(), inFlight: [] }));
    expect(s.ended).toBe(true);
    expect(s.verdict?.winner).toBe('B');
    const groups = groupCalls(s.calls.values());
    expect(
      groups.map((g) => [g.lane, g.stages.map((st) => `${st.stage}: ${st.calls.map((c) => c.callId).join(', ')}`)]),
    ).toEqual([
      ['ab', ['turn 1: ab/turn1/agent0, ab/turn1/agent1', 'turn 2: ab/turn2/agent0']],
      ['ba', ['turn 1: ba/turn1/agent0, ba/turn1/agent1', 'turn 2: ba/turn2/agent1, ba/turn2/agent1#1']],
    ]);
    expect(s.calls.get('ab/turn2/agent0')).toMatchObject({
      state: 'done',
      content: 'Score 1: 4\nScore 2: 9',
      model: 'mock-judge',
      latencyMs: 5,
    });
  });

  it('marks a reply that did not parse when its re-ask starts, and the last attempt as unparsed from the verdict', () => {
    const [first, ...rest] = replayEvents({
      status: { ...end, status: 'running' },
      ended: false,
      verdict: null,
      stored: stored().slice(0, 6),
      inFlight: [],
    });
    const s = fold([first!, ...rest]);
    expect(s.calls.get('ba/turn2/agent1')?.parseError).toBeNull();
    applyEvent(
      s,
      callStartedEvent('ev_1', {
        callId: 'ba/turn2/agent1#1',
        agent: 'agent1',
        label: 'Critic',
        stage: 'turn 2',
        startedAt: 7,
      }),
    );
    expect(s.calls.get('ba/turn2/agent1')?.parseError).toMatch(/did not parse/);
    expect(s.calls.get('ba/turn2/agent1#1')).toMatchObject({
      state: 'running',
      attempt: 1,
      base: 'ba/turn2/agent1',
      lane: 'ba',
    });
    fold(replayEvents({ status: end, ended: true, verdict, stored: stored(), inFlight: [] }), s);
    expect(s.calls.get('ba/turn2/agent1#1')).toMatchObject({
      unparsed: true,
      parseError: 'no "The score of Assistant 1:" line',
    });
    expect(s.calls.get('ba/turn2/agent1')?.unparsed).toBe(false);
  });

  it('a reconnect replays everything: folding it again changes nothing', () => {
    const events = replayEvents({ status: end, ended: true, verdict, stored: stored(), inFlight: [] });
    const once = fold(events);
    const twice = fold(events, fold(events));
    expect(twice).toEqual(once);
    expect(twice.votes).toHaveLength(2);
  });

  it('counts finished calls beyond the last status event, and shows a failed call with its error', () => {
    const failing: StoredResultView = {
      callId: 'judge',
      agent: 'judge',
      label: 'Judge',
      stage: 'judge',
      startedAt: 1,
      finishedAt: 9,
      latencyMs: null,
      result: { id: 'judge', ok: false, error: { code: 'rate_limited', message: '429 after 5 attempts' } },
    };
    const s = fold(
      replayEvents({
        status: { ...end, status: 'running', callsDone: 0 },
        ended: false,
        verdict: null,
        stored: [failing],
        inFlight: [],
      }),
    );
    expect(callsDone(s)).toBe(1);
    expect(s.calls.get('judge')).toMatchObject({
      state: 'failed',
      lane: 'main',
      error: { code: 'rate_limited', message: '429 after 5 attempts' },
    });
  });
});

describe('the transcript completes the live view', () => {
  it('adds exact parse errors, usage and recording order', () => {
    const s = fold(replayEvents({ status: end, ended: true, verdict, stored: stored(), inFlight: [] }));
    const transcript: Transcript = {
      id: 'ev_1',
      status: 'succeeded',
      complete: true,
      messages: stored().map((c, seq) => ({
        seq,
        callId: c.callId,
        agent: c.agent,
        label: c.label,
        stage: c.stage,
        model: 'mock-judge',
        content: c.result.ok ? c.result.content : '',
        usage,
        parseError: c.callId.startsWith('ba/turn2/agent1') ? 'no score line' : null,
      })),
    };
    applyTranscript(s, transcript);
    expect(s.transcriptMerged).toBe(true);
    expect(s.calls.get('ba/turn2/agent1')).toMatchObject({
      seq: 5,
      parseError: 'no score line',
      unparsed: false,
      usage: { promptTokens: 10, completionTokens: 5, costUsd: 0.0002 },
    });
    // The verdict's reason for the final attempt wins over the transcript's.
    expect(s.calls.get('ba/turn2/agent1#1')).toMatchObject({
      seq: 6,
      unparsed: true,
      parseError: 'no "The score of Assistant 1:" line',
    });
  });
});

describe('call ids', () => {
  it('splits repairs and finds the order, also inside a cascade stage', () => {
    expect(splitCallId('ab/turn1/agent0#2')).toEqual({ base: 'ab/turn1/agent0', attempt: 2 });
    expect(splitCallId('judge')).toEqual({ base: 'judge', attempt: 0 });
    expect(['s0/ab/judge', 's1/ba/turn1/agent0#1', 'sample0', 'abc/x'].map(laneOf)).toEqual([
      'ab',
      'ba',
      'main',
      'main',
    ]);
  });
});
