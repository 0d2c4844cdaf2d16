/**
 * @module
 * Samples in one request: a method marks calls that are independent samples of one prompt (`sampleOf`, e.g.
 * G-Eval's 20, FairEval's 3 per order), and where the driver says the call's provider is declared to take
 * OpenAI's `n` (`readyCalls`' `supportsN`) the protocol core asks for the fresh ones in ONE request with `n`,
 * as the authors' scripts did. Elsewhere (the default) every sample is a call of its own, all in one wave.
 * A result with fewer choices than asked (a provider declared `supportsN` that ignored `n`) fills the first
 * members, and the rest are asked as separate calls, never grouped again (one extra wave, only there).
 *
 * The request's id is its first member's (e.g. `ab/sample0`): the stored result under that id is that
 * member's first attempt, plus the first attempts of the next members when it carries more choices. Which
 * members a result's choices fill is a function of the state alone (pending samples of the group, in step
 * order, with nothing recorded; planned with every group mergeable, whatever the capability says now), so
 * a replay of the stored results rebuilds the same state.
 */
import type { CallSpec } from './method.js';

/** A call the method lists now, with its full (order-prefixed) id. */
export interface PendingCall {
  order: number;
  spec: CallSpec;
  fullId: string;
}

/** One request to make: `members[0]` is its lead (whose id it carries); more than one member means `n`. */
export interface PlannedRequest {
  lead: PendingCall;
  members: PendingCall[];
}

/** The ledger tag of a sampling group: the order prefix and the method's `sampleOf`. */
export function groupTag(prefix: string, sampleOf: string): string {
  return `${prefix}${sampleOf}`;
}

/** True when two samples would send the same request (all but the id). */
function sameRequest(a: CallSpec, b: CallSpec): boolean {
  return (
    a.agent === b.agent &&
    a.model === b.model &&
    a.provider === b.provider &&
    a.temperature === b.temperature &&
    a.maxTokens === b.maxTokens &&
    JSON.stringify(a.messages) === JSON.stringify(b.messages) &&
    JSON.stringify(a.parser) === JSON.stringify(b.parser)
  );
}

/**
 * The requests for the pending calls. A group's members are its pending calls with the same tag, nothing
 * recorded, and a request identical to the first one's; they go as one request when there are two or more
 * and no result of the group was ever recorded (`asked`). Every other call is a request of its own.
 * @param tagOf the group tag of a pending call, undefined when it stands alone.
 * @param asked tags of groups with a recorded result.
 * @param fresh true when nothing is recorded for the id.
 */
export function planRequests(
  pending: readonly PendingCall[],
  tagOf: (p: PendingCall) => string | undefined,
  asked: ReadonlySet<string>,
  fresh: (fullId: string) => boolean,
): PlannedRequest[] {
  const out: PlannedRequest[] = [];
  const groups = new Map<string, PlannedRequest>();
  for (const p of pending) {
    const tag = tagOf(p);
    if (tag === undefined || asked.has(tag) || !fresh(p.fullId)) {
      out.push({ lead: p, members: [p] });
      continue;
    }
    const group = groups.get(tag);
    if (group && sameRequest(group.lead.spec, p.spec)) {
      group.members.push(p);
      continue;
    }
    const planned = { lead: p, members: [p] };
    out.push(planned);
    if (!group) groups.set(tag, planned);
  }
  return out;
}
