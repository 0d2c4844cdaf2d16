/**
 * @module
 * The ledger of an evaluation's state: every reply recorded per call id, and what is read from it (the
 * transcript, requests and usage, the replies that never parsed). Plain JSON, shared by the protocol core.
 */
import type { Usage } from './call.js';
import { addUsage, ZERO_USAGE } from './call.js';
import type { TranscriptEntry, Unparsed } from './verdict.js';

/** One reply received for a call (the first answer or a repair). */
export interface Attempt {
  content: string;
  model: string;
  /** Usage of the request; zero for a further choice (`choiceOf`), whose request's usage its lead carries. */
  usage: Usage;
  parseError?: string;
  /** Set when the reply came as a further choice of another call's request (`n`): that request's id. */
  choiceOf?: string;
}

/** Everything recorded for one call id (its first attempt and its repairs). */
export interface LedgerEntry {
  agent: string;
  label: string;
  stage: string;
  attempts: Attempt[];
  /** True once the method has been handed the final (parsed or unparsed) reply. */
  final: boolean;
  /** The sampling group the call belongs to (`samples.ts`), when its method marked it `sampleOf`. */
  sampleOf?: string;
}

/** The parts of an engine state the readers below use. */
export interface LedgerView {
  /** Results by base call id (order prefix included, repair suffix excluded). */
  ledger: Record<string, LedgerEntry>;
  /** `baseId#attempt` in the order results were recorded: the transcript order. */
  log: string[];
}

/** Splits `ab/turn1/agent0#2` into base id `ab/turn1/agent0` and attempt 2 (a call id without `#n` is attempt 0). */
export function splitCallId(id: string): { base: string; attempt: number } {
  const hash = id.lastIndexOf('#');
  if (hash < 0) return { base: id, attempt: 0 };
  const n = Number(id.slice(hash + 1));
  // `#0` only appears in the log (first attempts travel without a suffix); both forms mean attempt 0.
  return Number.isInteger(n) && n >= 0 ? { base: id.slice(0, hash), attempt: n } : { base: id, attempt: 0 };
}

/** Replies that never parsed, from the ledger. */
export function unparsedOf(state: LedgerView): Unparsed[] {
  const out: Unparsed[] = [];
  for (const [callId, e] of Object.entries(state.ledger)) {
    const last = e.attempts.at(-1);
    if (e.final && last?.parseError !== undefined)
      out.push({ callId, agent: e.agent, stage: e.stage, reason: last.parseError });
  }
  return out;
}

/** The transcript in recording order, with usage per reply. */
export function transcriptOf(state: LedgerView): TranscriptEntry[] {
  return state.log.flatMap((key) => {
    const { base, attempt } = splitCallId(key);
    const e = state.ledger[base];
    const a = e?.attempts[attempt];
    if (!e || !a) return [];
    return [
      {
        callId: attempt === 0 ? base : `${base}#${attempt}`,
        agent: e.agent,
        label: e.label,
        stage: e.stage,
        model: a.model,
        content: a.content,
        usage: a.usage,
        ...(a.parseError !== undefined ? { parseError: a.parseError } : {}),
        ...(a.choiceOf !== undefined ? { request: a.choiceOf } : {}),
      },
    ];
  });
}

/** Requests recorded so far (repairs included; a further choice of a request with `n` is no request) and their summed usage. */
export function usageOf(state: LedgerView): { calls: number; usage: Usage } {
  let calls = 0;
  let usage = ZERO_USAGE;
  for (const e of Object.values(state.ledger)) {
    for (const a of e.attempts) {
      if (a.choiceOf === undefined) calls += 1;
      usage = addUsage(usage, a.usage);
    }
  }
  return { calls, usage };
}
