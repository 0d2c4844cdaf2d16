/**
 * @module
 * Live progress events of one evaluation, as served by `GET /v1/evaluations/:id/events` over SSE
 * (`text/event-stream`, one `event:` per type) or WebSocket (one JSON `{ type, data }` text frame each).
 *
 * Order for every subscriber: a `status` event, then `call.started` / `call.finished` pairs in recording
 * order (replayed from the Durable Object's stored results for a late subscriber), then live events;
 * a finished evaluation ends with `vote`… `verdict` (succeeded only) and a terminal `status`, after which
 * the stream closes.
 */
import type { LlmError, Usage } from '../engine/call.js';
import type { Verdict, Vote } from '../engine/verdict.js';

import type { EvaluationStatus } from './status.js';

/** A stable error as stored and shown: a code and a human reason. */
export interface EvaluationError {
  code: string;
  message: string;
  /** Provider HTTP status, for LLM failures that had one. */
  status?: number;
  /** The call whose failure ended the evaluation, for LLM failures. */
  callId?: string;
}

/** `status`: the evaluation's status and progress; the last event of a stream is a terminal one. */
export interface StatusEvent {
  type: 'status';
  data: {
    evaluationId: string;
    status: EvaluationStatus;
    callsDone: number;
    callsPlanned: number;
    error?: EvaluationError;
    /** Epoch ms. */
    at: number;
  };
}

/** `call.started`: an LLM call began (sent, or waiting for its provider slot; `call.finished` says `not_sent` if a cancel stopped it there). */
export interface CallStartedEvent {
  type: 'call.started';
  data: {
    evaluationId: string;
    callId: string;
    agent: string;
    label: string;
    stage: string;
    model?: string;
    at: number;
  };
}

/** `call.finished`: an LLM call's result was stored; `content` is the agent's message when `ok`. */
export interface CallFinishedEvent {
  type: 'call.finished';
  data: {
    evaluationId: string;
    callId: string;
    agent: string;
    label: string;
    stage: string;
    ok: boolean;
    content?: string;
    /** Every choice of a request with `n` (samples of one prompt asked at once; `choices[0]` is `content`). */
    choices?: string[];
    model?: string;
    /** Tokens and cost of the reply (when `ok`): running totals while the debate goes on. */
    usage?: Usage;
    error?: LlmError;
    /** Epoch ms when the call went out / its result was stored. */
    startedAt: number;
    finishedAt: number;
    /** Wall time of the call including the LLM layer's retries, ms. */
    latencyMs: number;
  };
}

/** `vote`: one agent's final vote or score (sent just before the verdict). */
export interface VoteEvent {
  type: 'vote';
  data: { evaluationId: string } & Vote;
}

/** A verdict without its transcript, as events and the evaluation's D1 row carry it (the transcript is stored per call). */
export type VerdictSummary = Omit<Verdict, 'transcript'>;

/** `verdict`: the verdict without its transcript (the transcript is the `call.finished` events). */
export interface VerdictEvent {
  type: 'verdict';
  data: { evaluationId: string; verdict: VerdictSummary };
}

/** Any live progress event. */
export type EvaluationEvent = StatusEvent | CallStartedEvent | CallFinishedEvent | VoteEvent | VerdictEvent;

/** One SSE frame: `event: <type>` and the JSON data on one `data:` line. */
export function encodeSse(event: EvaluationEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** One WebSocket text frame: `{ "type": ..., "data": ... }`. */
export function encodeWs(event: EvaluationEvent): string {
  return JSON.stringify(event);
}
