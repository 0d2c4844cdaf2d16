/**
 * @module
 * What the evaluation page shows, as data: the live events of `GET /v1/evaluations/{id}/events` folded
 * into one state (status, each call as it starts and finishes, votes, verdict), then completed by the
 * stored transcript (parse errors, usage per reply). Pure and idempotent: a reconnect replays every event
 * from the start and folding it again changes nothing. Tested in Node (tests/web/debate.test.ts).
 *
 * Layout: calls are grouped into lanes by presentation order (`ab/…` as submitted, `ba/…` swapped, for
 * position-calibrated pairwise presets; `main` otherwise), and inside a lane by stage (`turn 1`,
 * `iteration 2 critique`, `cheap: judge`…) in the order stages first appear.
 */
import type { EvaluationEvent, EvaluationStatus, Transcript, VerdictSummary, Vote } from './types.js';

/** Presentation order of a call. */
export type Lane = 'main' | 'ab' | 'ba';

/** One LLM call (a first attempt or a repair) as the page shows it. */
export interface CallView {
  callId: string;
  /** Call id without the repair suffix (`ab/turn1/agent0` for `ab/turn1/agent0#1`). */
  base: string;
  /** 0 for the first attempt, n for the n-th repair (re-ask after a reply that did not parse). */
  attempt: number;
  lane: Lane;
  agent: string;
  label: string;
  stage: string;
  model: string | null;
  state: 'running' | 'done' | 'failed';
  content: string | null;
  /** The LLM failure, for a call that failed after its retries. */
  error: { code: string; message: string } | null;
  startedAt: number;
  latencyMs: number | null;
  /** Why the reply did not parse (known live when a repair starts, exactly from the transcript). */
  parseError: string | null;
  /** True when this is the last reply of a call that never parsed (the verdict lists it as unparsed). */
  unparsed: boolean;
  /** Tokens and cost of this reply (from the transcript). */
  usage: { promptTokens: number; completionTokens: number; costUsd: number } | null;
  /** Position in the transcript (recording order), once known. */
  seq: number | null;
}

/** Everything the page shows about one evaluation. */
export interface DebateState {
  status: EvaluationStatus | null;
  callsDone: number;
  callsPlanned: number;
  error: { code: string; message: string } | null;
  /** Calls by id, in the order they started. */
  calls: Map<string, CallView>;
  votes: Vote[];
  verdict: VerdictSummary | null;
  /** A terminal status arrived. */
  ended: boolean;
  /** The stored transcript was merged (nothing more will change). */
  transcriptMerged: boolean;
}

/** An empty state. */
export function emptyDebate(): DebateState {
  return {
    status: null,
    callsDone: 0,
    callsPlanned: 0,
    error: null,
    calls: new Map(),
    votes: [],
    verdict: null,
    ended: false,
    transcriptMerged: false,
  };
}

const TERMINAL: readonly string[] = ['succeeded', 'failed', 'cancelled'];

/** True for `succeeded`, `failed`, `cancelled`. */
export function isTerminal(status: string | null): boolean {
  return status !== null && TERMINAL.includes(status);
}

/** `ab/turn1/agent0#2` → base `ab/turn1/agent0`, attempt 2 (the engine's call id grammar). */
export function splitCallId(callId: string): { base: string; attempt: number } {
  const hash = callId.lastIndexOf('#');
  if (hash < 0) return { base: callId, attempt: 0 };
  const n = Number(callId.slice(hash + 1));
  return Number.isInteger(n) && n >= 0 ? { base: callId.slice(0, hash), attempt: n } : { base: callId, attempt: 0 };
}

/** The presentation order a call id belongs to (`ab/` or `ba/` segment, also nested in a cascade stage). */
export function laneOf(callId: string): Lane {
  const m = /(?:^|\/)(ab|ba)\//.exec(callId);
  return m?.[1] === 'ab' ? 'ab' : m?.[1] === 'ba' ? 'ba' : 'main';
}

function callFrom(callId: string, agent: string, label: string, stage: string, startedAt: number): CallView {
  const { base, attempt } = splitCallId(callId);
  return {
    callId,
    base,
    attempt,
    lane: laneOf(callId),
    agent,
    label,
    stage,
    model: null,
    state: 'running',
    content: null,
    error: null,
    startedAt,
    latencyMs: null,
    parseError: null,
    unparsed: false,
    usage: null,
    seq: null,
  };
}

/** The attempt before `c` of the same call (the reply a repair re-asks for). */
function previousAttempt(s: DebateState, c: CallView): CallView | undefined {
  if (c.attempt === 0) return undefined;
  return s.calls.get(c.attempt === 1 ? c.base : `${c.base}#${c.attempt - 1}`);
}

/** Folds one event into the state (in place); returns the same state. */
export function applyEvent(s: DebateState, e: EvaluationEvent): DebateState {
  switch (e.type) {
    case 'status':
      s.status = e.data.status;
      s.callsDone = Math.max(s.callsDone, e.data.callsDone);
      s.callsPlanned = e.data.callsPlanned > 0 ? e.data.callsPlanned : s.callsPlanned;
      s.error = e.data.error ? { code: e.data.error.code, message: e.data.error.message } : s.error;
      if (isTerminal(e.data.status)) s.ended = true;
      break;
    case 'call.started': {
      const d = e.data;
      const c = s.calls.get(d.callId) ?? callFrom(d.callId, d.agent, d.label, d.stage, d.at);
      if (d.model !== undefined) c.model = d.model;
      s.calls.set(d.callId, c);
      // A repair only goes out when the previous reply did not parse.
      const prev = previousAttempt(s, c);
      if (prev && prev.parseError === null) prev.parseError = 'the reply did not parse; the agent was asked again';
      break;
    }
    case 'call.finished': {
      const d = e.data;
      const c = s.calls.get(d.callId) ?? callFrom(d.callId, d.agent, d.label, d.stage, d.startedAt);
      c.state = d.ok ? 'done' : 'failed';
      c.content = d.content ?? null;
      c.model = d.model ?? c.model;
      c.error = d.error ? { code: d.error.code, message: d.error.message } : null;
      c.startedAt = d.startedAt;
      c.latencyMs = d.latencyMs;
      if (d.usage)
        c.usage = {
          promptTokens: d.usage.promptTokens,
          completionTokens: d.usage.completionTokens,
          costUsd: d.usage.costUsd,
        };
      s.calls.set(d.callId, c);
      break;
    }
    case 'vote':
      if (!s.votes.some((v) => v.agent === e.data.agent && v.order === e.data.order)) {
        const { evaluationId: _id, ...vote } = e.data;
        s.votes.push(vote);
      }
      break;
    case 'verdict':
      applyVerdict(s, e.data.verdict);
      break;
  }
  return s;
}

/** Sets the verdict, its votes, and marks the replies it lists as never parsed. */
export function applyVerdict(s: DebateState, verdict: VerdictSummary): DebateState {
  s.verdict = verdict;
  if (s.votes.length === 0) s.votes = [...verdict.votes];
  for (const u of verdict.unparsed) {
    const attempts = [...s.calls.values()].filter((c) => c.base === u.callId);
    const last = attempts.sort((a, b) => a.attempt - b.attempt).at(-1);
    if (last) {
      last.unparsed = true;
      last.parseError = u.reason;
    }
  }
  return s;
}

/** Completes the state with the stored transcript: exact parse errors, usage and recording order. */
export function applyTranscript(s: DebateState, t: Transcript): DebateState {
  for (const m of t.messages) {
    const c = s.calls.get(m.callId) ?? callFrom(m.callId, m.agent, m.label, m.stage, 0);
    c.state = 'done';
    c.content = m.content;
    c.model = m.model;
    c.seq = m.seq;
    c.usage = {
      promptTokens: m.usage.promptTokens,
      completionTokens: m.usage.completionTokens,
      costUsd: m.usage.costUsd ?? 0,
    };
    if (m.parseError !== null) c.parseError = m.parseError;
    s.calls.set(m.callId, c);
  }
  if (t.complete) s.transcriptMerged = true;
  if (s.verdict) applyVerdict(s, s.verdict);
  return s;
}

/** One stage of a lane with its calls in start order. */
export interface StageGroup {
  stage: string;
  calls: CallView[];
}

/** One presentation order with its stages. */
export interface LaneGroup {
  lane: Lane;
  stages: StageGroup[];
}

/** Calls grouped by lane (`ab` before `ba`, `main` alone) and stage, stages in order of first appearance. */
export function groupCalls(calls: Iterable<CallView>): LaneGroup[] {
  const lanes = new Map<Lane, Map<string, CallView[]>>();
  for (const c of calls) {
    const stages = lanes.get(c.lane) ?? new Map<string, CallView[]>();
    lanes.set(c.lane, stages);
    const list = stages.get(c.stage) ?? [];
    stages.set(c.stage, list);
    list.push(c);
  }
  const order: Lane[] = ['main', 'ab', 'ba'];
  return order.flatMap((lane) => {
    const stages = lanes.get(lane);
    return stages ? [{ lane, stages: [...stages.entries()].map(([stage, list]) => ({ stage, calls: list })) }] : [];
  });
}

/** How a lane is titled on the page. */
export function laneTitle(lane: Lane): string {
  return lane === 'ab' ? 'As submitted (A first)' : lane === 'ba' ? 'Swapped (B shown first)' : 'Debate';
}

/** Tokens and cost of the replies seen so far (live, from `call.finished`; exact after the transcript). */
export function usageSoFar(s: DebateState): { promptTokens: number; completionTokens: number; costUsd: number } {
  const sum = { promptTokens: 0, completionTokens: 0, costUsd: 0 };
  for (const c of s.calls.values()) {
    if (!c.usage) continue;
    sum.promptTokens += c.usage.promptTokens;
    sum.completionTokens += c.usage.completionTokens;
    sum.costUsd += c.usage.costUsd;
  }
  return sum;
}

/**
 * Calls finished so far: the larger of the last `status` count and the finished calls seen (the object
 * sends `status` when the evaluation starts and ends; `call.finished` in between).
 */
export function callsDone(s: DebateState): number {
  let finished = 0;
  for (const c of s.calls.values()) if (c.state !== 'running') finished++;
  return Math.max(s.callsDone, finished);
}
