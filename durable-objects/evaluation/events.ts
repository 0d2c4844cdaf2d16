/**
 * @module
 * Building the live events of one evaluation (src/pipeline/events.ts) from what the object knows: pure
 * functions of plain values, no platform API, so they run and are tested in Node
 * (tests/pipeline/do-events.test.ts). The object sends what these return (./streams.ts).
 */
import type { LlmCallResult } from '../../src/engine/call.js';
import type {
  CallFinishedEvent,
  CallStartedEvent,
  EvaluationError,
  EvaluationEvent,
  StatusEvent,
} from '../../src/pipeline/events.js';
import type { EvaluationStatus } from '../../src/pipeline/status.js';
import type { VerdictSummary } from '../../src/pipeline/events.js';

/** Where an evaluation stands, as the `status` event reports it. */
export interface StatusView {
  evaluationId: string;
  status: EvaluationStatus;
  callsDone: number;
  callsPlanned: number;
  error: EvaluationError | null;
  /** Epoch ms of the last change. */
  at: number;
}

/** Who speaks in a call and where in the protocol. */
export interface CallView {
  callId: string;
  agent: string;
  label: string;
  stage: string;
}

/** A stored call: its result and when it went out / was stored (epoch ms). */
export interface StoredResultView extends CallView {
  result: LlmCallResult;
  startedAt: number;
  finishedAt: number;
  /** The LLM layer's wall time, ms; null when it reported none. */
  latencyMs: number | null;
}

/** A call in flight: what went out and when. */
export interface InFlightView extends CallView {
  model?: string;
  startedAt: number;
}

/** `status`: status and progress. */
export function statusEvent(s: StatusView): StatusEvent {
  return {
    type: 'status',
    data: {
      evaluationId: s.evaluationId,
      status: s.status,
      callsDone: s.callsDone,
      callsPlanned: s.callsPlanned,
      ...(s.error ? { error: s.error } : {}),
      at: s.at,
    },
  };
}

/** `call.started`: a call went out at `c.startedAt`. */
export function callStartedEvent(evaluationId: string, c: InFlightView): CallStartedEvent {
  return {
    type: 'call.started',
    data: {
      evaluationId,
      callId: c.callId,
      agent: c.agent,
      label: c.label,
      stage: c.stage,
      ...(c.model !== undefined ? { model: c.model } : {}),
      at: c.startedAt,
    },
  };
}

/**
 * `call.finished`: a result was stored; the message when it succeeded, the error when not.
 * `latencyMs` falls back to the time the object measured around the call.
 */
export function callFinishedEvent(evaluationId: string, r: StoredResultView): CallFinishedEvent {
  return {
    type: 'call.finished',
    data: {
      evaluationId,
      callId: r.callId,
      agent: r.agent,
      label: r.label,
      stage: r.stage,
      ok: r.result.ok,
      ...(r.result.ok
        ? {
            content: r.result.content,
            ...(r.result.choices ? { choices: r.result.choices } : {}),
            model: r.result.model,
            usage: r.result.usage,
          }
        : { error: r.result.error }),
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      latencyMs: r.latencyMs ?? r.finishedAt - r.startedAt,
    },
  };
}

/** The end of a stream: each vote and the verdict (succeeded only, verdict without transcript), then the terminal status. */
export function terminalEvents(s: StatusView, verdict: VerdictSummary | null): EvaluationEvent[] {
  const out: EvaluationEvent[] = [];
  if (s.status === 'succeeded' && verdict) {
    for (const v of verdict.votes) out.push({ type: 'vote', data: { evaluationId: s.evaluationId, ...v } });
    out.push({ type: 'verdict', data: { evaluationId: s.evaluationId, verdict } });
  }
  out.push(statusEvent(s));
  return out;
}

/** What a new subscriber is told about an evaluation this object runs or ran. */
export interface ReplayInput {
  status: StatusView;
  /** True once the evaluation ended and its final write landed: the replay ends the stream. */
  ended: boolean;
  /** The verdict, for an evaluation that succeeded. */
  verdict: VerdictSummary | null;
  stored: readonly StoredResultView[];
  inFlight: readonly InFlightView[];
}

/**
 * Everything so far, for a new subscriber: the current status (unless ended), every stored call as a
 * `call.started` / `call.finished` pair in recording order, a `call.started` for each call in flight,
 * and, once ended, the terminal events.
 */
export function replayEvents(r: ReplayInput): EvaluationEvent[] {
  const out: EvaluationEvent[] = [];
  if (!r.ended) out.push(statusEvent(r.status));
  const id = r.status.evaluationId;
  for (const s of r.stored) {
    out.push(callStartedEvent(id, s), callFinishedEvent(id, s));
  }
  for (const f of r.inFlight) out.push(callStartedEvent(id, f));
  if (r.ended) out.push(...terminalEvents(r.status, r.verdict));
  return out;
}

/** The status of an evaluation this object did not run: `queued` while waiting for a start, or the end it learned of. */
export function notRunEvent(
  evaluationId: string,
  status: EvaluationStatus,
  error: EvaluationError | null,
  at: number,
): StatusEvent {
  return statusEvent({ evaluationId, status, callsDone: 0, callsPlanned: 0, error, at });
}
