/**
 * @module
 * A Worker isolate's side of the per-key rate: requests of one key take their tokens from the tenant's
 * `RateLimiterDO` in batches, not one object request each, so a tenant's burst (10,000 single requests in
 * seconds) does not become as many requests to one object (about 1,000 per second is one object's limit:
 * docs/scale.md).
 *
 * - **Coalesced.** While a reservation is on its way, the key's next requests wait for it and go together
 *   in the next one: one object request for all of them. Counting stays exact (the object decides for each).
 * - **Reserved ahead under load.** A key this isolate sees at 10 requests/s or more reserves, on top of its
 *   waiting requests, the tokens of its next 100 ms of demand ({@link RESERVE_AHEAD_SECONDS}), at most
 *   {@link MAX_RESERVED} and a tenth of the quota. They are spent here for {@link LEASE_MS}; whatever is
 *   left then goes back to the bucket with the next reservation. A key below that rate asks for exactly
 *   what it needs, so a quiet key is counted exactly as before.
 * - **Refused locally.** After a refusal the isolate refuses the key's requests itself until the object
 *   said a token is back (to the millisecond), unless the policy changed.
 * - **Each reservation belongs to a request that waits for it.** workerd runs a promise's callbacks in the
 *   request that started its I/O and cancels that I/O when the request ends; a reservation made from the
 *   callbacks of another request's reservation would die with that request, and the requests waiting for it
 *   would hang (workerd answers them 500, "your Worker's code had hung") with the key's state stuck in flight
 *   for good. So when a reservation ends, the requests it did not answer wake up in their own requests, and
 *   the first of them makes the next one for all of them. The reservation is also kept alive past its own
 *   request's end (`waitUntil`): the others wait for it, whatever happens to the client that started it.
 *
 * A reservation's unused tokens are lost if the isolate never asks again (at most {@link MAX_RESERVED} per
 * isolate and key): an isolate may refuse slightly early under a burst, never allow more than the quota.
 */
import type { RatePolicy } from './limits.js';
import type { RateDecision, Reservation } from './token-bucket.js';

/** How long reserved tokens are spent locally before they go back, ms: 1,000. */
export const LEASE_MS = 1_000;
/** Reserved-ahead tokens cover this much of the key's demand in this isolate, s: 0.1. */
export const RESERVE_AHEAD_SECONDS = 0.1;
/** At most this many tokens reserved ahead per isolate and key: 64. */
export const MAX_RESERVED = 64;

/** The object request: reserve up to `want` tokens after giving back `returned`. */
export type Reserve = (want: number, returned: number) => Promise<Reservation>;

/** Keeps a promise's I/O running after the request that started it has ended: its `waitUntil`. */
export type KeepAlive = (promise: Promise<unknown>) => void;

interface Waiter {
  /** Answered (allowed, refused, or the reservation failed): set by {@link answer} and {@link fail}. */
  settled: boolean;
  resolve: (d: RateDecision) => void;
  reject: (e: unknown) => void;
}

function answer(w: Waiter, d: RateDecision): void {
  w.settled = true;
  w.resolve(d);
}

function fail(w: Waiter, e: unknown): void {
  w.settled = true;
  w.reject(e);
}

interface KeyState {
  policy: string;
  /** Reserved tokens not yet spent, and until when they may be. */
  tokens: number;
  expires: number;
  /** The bucket's `remaining` and `resetSeconds` when they were reserved. */
  remaining: number;
  resetSeconds: number;
  /** Refuse locally until then (epoch ms). */
  refusedUntil: number;
  /** The reservation on its way: settles (never rejects) once its answers are handed out; null when none. */
  inFlight: Promise<void> | null;
  /** Requests waiting for the next reservation. */
  waiting: Waiter[];
  /** Requests seen in the current second, and in the one before (the demand). */
  second: number;
  seen: number;
  lastRate: number;
}

const policyKey = (p: RatePolicy) => `${p.requests}/${p.windowSeconds}`;

/** One isolate's reservations, by key (the tenant and its key id). */
export class Reservations {
  private readonly keys = new Map<string, KeyState>();

  /** @param now clock, epoch ms (tests). Default `Date.now`. */
  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The decision for one request of `key` under `policy`. `reserve` and `keepAlive` are this request's own:
   * they are called only from this call (in this request), and only when no local answer holds.
   */
  async take(
    key: string,
    policy: RatePolicy,
    reserve: Reserve,
    keepAlive: KeepAlive = () => undefined,
  ): Promise<RateDecision> {
    const now = this.now();
    const s = this.stateOf(key, policy, now);
    const local = this.answerLocally(s, now);
    if (local) return local;
    let waiter!: Waiter;
    const decision = new Promise<RateDecision>((resolve, reject) => {
      waiter = { settled: false, resolve, reject };
    });
    s.waiting.push(waiter);
    // Until answered: the reservation on its way, or the next one, made here (see the module note).
    while (!waiter.settled) {
      const flight = s.inFlight ?? this.flush(s, policy, reserve, keepAlive);
      await Promise.race([decision, flight]);
    }
    return decision;
  }

  private stateOf(key: string, policy: RatePolicy, now: number): KeyState {
    let s = this.keys.get(key);
    if (!s) {
      s = {
        policy: policyKey(policy),
        tokens: 0,
        expires: 0,
        remaining: 0,
        resetSeconds: 0,
        refusedUntil: 0,
        inFlight: null,
        waiting: [],
        second: Math.floor(now / 1000),
        seen: 0,
        lastRate: 0,
      };
      this.keys.set(key, s);
      // Forget keys idle for a while, so the map stays small in a long-lived isolate.
      if (this.keys.size > 10_000)
        for (const [k, v] of this.keys)
          if (v.inFlight === null && v.waiting.length === 0 && v.expires < now) this.keys.delete(k);
    }
    if (s.policy !== policyKey(policy)) {
      // A changed policy: the object decides again (the tokens held go back with the next reservation).
      s.policy = policyKey(policy);
      s.refusedUntil = 0;
      s.expires = 0;
    }
    const second = Math.floor(now / 1000);
    if (second !== s.second) {
      s.lastRate = second === s.second + 1 ? s.seen : 0;
      s.second = second;
      s.seen = 0;
    }
    s.seen += 1;
    return s;
  }

  /** A reserved token while the lease holds, or the refusal while it holds; else null. */
  private answerLocally(s: KeyState, now: number): RateDecision | null {
    if (s.tokens > 0 && now < s.expires) {
      s.tokens -= 1;
      return { allowed: true, remaining: s.remaining + s.tokens, resetSeconds: s.resetSeconds, retryAfterSeconds: 0 };
    }
    if (now < s.refusedUntil) return refusal(s.resetSeconds, s.refusedUntil - now);
    return null;
  }

  /**
   * One reservation for every waiting request (and the demand ahead), handed out in arrival order; the
   * requests that arrived meanwhile are answered locally where they can be, and the rest make the next one
   * themselves ({@link take}). Returns the reservation's end.
   */
  private flush(s: KeyState, policy: RatePolicy, reserve: Reserve, keepAlive: KeepAlive): Promise<void> {
    const batch = s.waiting.splice(0);
    const now = this.now();
    const returned = now >= s.expires ? s.tokens : 0;
    if (returned > 0) s.tokens = 0;
    // The demand: the last whole second's, or, from 10 requests on, this second's so far as a rate (over at
    // least 100 ms of it). Fewer than 10 requests a second reserve nothing ahead.
    const soFar = s.seen >= 1 / RESERVE_AHEAD_SECONDS ? (s.seen * 1000) / Math.max(100, now - s.second * 1000) : 0;
    const rate = Math.max(s.lastRate, soFar);
    const ahead =
      rate >= 1 / RESERVE_AHEAD_SECONDS
        ? Math.min(MAX_RESERVED, Math.floor(rate * RESERVE_AHEAD_SECONDS), Math.floor(policy.requests / 10))
        : 0;
    // A reserve that throws is a failed reservation like any other: the batch is answered either way.
    const flight = new Promise<Reservation>((resolve) => {
      resolve(reserve(batch.length + ahead, returned));
    }).then(
      (r) => {
        const at = this.now();
        let granted = r.granted;
        for (const w of batch) {
          if (granted > 0) {
            granted -= 1;
            answer(w, {
              allowed: true,
              remaining: r.decision.remaining + granted,
              resetSeconds: r.decision.resetSeconds,
              retryAfterSeconds: 0,
            });
          } else answer(w, refusal(r.decision.resetSeconds, r.nextTokenMs));
        }
        s.tokens += granted;
        s.expires = at + LEASE_MS;
        s.remaining = r.decision.remaining;
        s.resetSeconds = r.decision.resetSeconds;
        // Rounded up to the millisecond: a token that float arithmetic has not quite refilled yet is not
        // asked for twice.
        s.refusedUntil = granted === 0 && r.nextTokenMs > 0 ? at + Math.ceil(r.nextTokenMs) : 0;
        this.answerWaiting(s, at);
      },
      (e: unknown) => {
        s.tokens += returned;
        for (const w of batch) fail(w, e);
        this.answerWaiting(s, this.now());
      },
    );
    const ended = flight.finally(() => {
      s.inFlight = null;
    });
    s.inFlight = ended;
    keepAlive(ended);
    return ended;
  }

  /** Requests that arrived during a reservation and can be answered locally are; the rest stay waiting. */
  private answerWaiting(s: KeyState, now: number): void {
    const still: Waiter[] = [];
    for (const w of s.waiting.splice(0)) {
      const local = this.answerLocally(s, now);
      if (local) answer(w, local);
      else still.push(w);
    }
    s.waiting.push(...still);
  }
}

function refusal(resetSeconds: number, waitMs: number): RateDecision {
  return {
    allowed: false,
    remaining: 0,
    resetSeconds,
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000 - 1e-9)),
  };
}
