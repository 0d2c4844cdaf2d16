/**
 * @module
 * {@link GateChannel}: one evaluation's traffic with one provider gate object (./worker-gate.ts says why a turn's
 * asks and releases travel in one `exchange`, and how the object is chosen).
 *
 * Why a failed RPC replaces the stub: a Durable Object stub whose call failed on a disconnection (its object was
 * reset or evicted, a deploy, a lost connection) may stay broken for good, every later call on it failing at
 * once. Kept, it made each later attempt of the evaluation go out ungated ("a gate that cannot be reached lets
 * the attempt through"). The first failure seen on the current stub asks the namespace for a fresh one (logged
 * once), and an ask whose RPC failed asks again through it; only when that fails too does the attempt go out
 * without a slot. Asking again is safe: an id's ask is idempotent at the gate (one that holds the slot gets it
 * again, one still waiting there takes its own place: src/provider-gate/window.ts), and a release of an id the
 * gate holds no lease for (a reset object lost its leases) is ignored.
 */
import { log, messageOf } from '../log/log.js';
import type { GateLease, GateOutcome } from '../llm/provider-gate-hook.js';
import { NO_SLOT } from '../llm/provider-gate-hook.js';
import type { GateLimits, GateRelease, ProviderGateObject } from './rpc.js';
import type { Grant } from './window.js';

type GateStub = DurableObjectStub<ProviderGateObject>;

/** Who the attempts are for, and where they go. */
export interface ChannelOf {
  /** A stub of the gate object; called again for a fresh one after an RPC on the current one failed. */
  connect: () => GateStub;
  limits: GateLimits;
  tenant: string;
  evaluationId: string;
  provider: string;
}

/** An attempt's ask for a slot, waiting for its lease. */
interface Ask {
  id: string;
  callId: string;
  resolve: (lease: GateLease) => void;
  /**
   * Where it is: `queued` until this turn's exchange, `exchange` while that RPC is out, `waiting` in `acquire`,
   * `granted` once its holder has the lease, `withdrawn` once its signal aborted before that.
   */
  state: 'queued' | 'exchange' | 'waiting' | 'granted' | 'withdrawn';
  /** Stops listening to the signal (once granted: a long evaluation's signal keeps no listener per call). */
  off: () => void;
}

/** Whether the ask's signal withdrew it (read through a call: the state changes across awaits). */
function withdrawn(a: Ask): boolean {
  return a.state === 'withdrawn';
}

/** Whether the platform said not to retry (an overloaded object: a retry only adds to its load). */
function overloaded(e: unknown): boolean {
  return typeof e === 'object' && e !== null && Reflect.get(e, 'overloaded') === true;
}

/**
 * One evaluation's traffic with one gate object: the asks and releases of a turn go in one `exchange` at its
 * end; an ask the gate cannot grant at once waits its turn through `acquire`. An ask whose signal aborts (its
 * evaluation ended) is answered {@link NO_SLOT} at once and withdrawn from the gate's queue, so a cancel waits
 * for no grant; a grant that still reaches it (it crossed the withdrawal) is given back at once, unused.
 */
export class GateChannel {
  private asks: Ask[] = [];
  private held: GateRelease[] = [];
  private withdrawals: string[] = [];
  private soon: ReturnType<typeof setTimeout> | null = null;
  private stub: GateStub;

  constructor(private readonly of: ChannelOf) {
    this.stub = of.connect();
  }

  /** A slot for attempt `id` (lease id) of call `callId`; {@link NO_SLOT} at once when `signal` aborts first. */
  acquire(id: string, callId: string, signal?: AbortSignal): Promise<GateLease> {
    if (signal?.aborted === true) return Promise.resolve(NO_SLOT);
    return new Promise((resolve) => {
      const ask: Ask = { id, callId, resolve, state: 'queued', off: () => undefined };
      if (signal) {
        const onAbort = () => {
          this.withdraw(ask);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        ask.off = () => {
          signal.removeEventListener('abort', onAbort);
        };
      }
      this.asks.push(ask);
      this.flushSoon();
    });
  }

  private release(id: string, outcome: GateOutcome): void {
    this.held.push({ id, outcome });
    this.flushSoon();
  }

  /** The ask's holder will not send: answered at once; the gate forgets it (or gets its late grant back). */
  private withdraw(ask: Ask): void {
    const was = ask.state;
    if (was === 'granted' || was === 'withdrawn') return;
    ask.state = 'withdrawn';
    ask.resolve(NO_SLOT);
    if (was === 'queued') this.asks = this.asks.filter((a) => a !== ask);
    else if (was === 'waiting') {
      this.withdrawals.push(ask.id);
      this.flushSoon();
    }
    // `exchange`: its answer decides (a grant is given back, a null goes no further).
  }

  /**
   * At the end of this turn (a timer of 0 runs after every promise job the turn queued): the calls a result made
   * ready ask in that same turn, so their asks and the result's release go together.
   */
  private flushSoon(): void {
    this.soon ??= setTimeout(() => void this.flush(), 0);
  }

  private async flush(): Promise<void> {
    this.soon = null;
    const asks = this.asks.splice(0);
    const releases = this.held.splice(0);
    const withdrawals = this.withdrawals.splice(0);
    const { limits, tenant } = this.of;
    const stub = this.stub;
    // A withdrawal that fails (a gate object on code without `withdraw` during a deploy) leaves the ask queued
    // there: its grant, when it comes, is given back at once (`waitTurn`). Sent before the exchange on the same
    // stub, so it reaches the object first (a release of a crossed grant below then finds nothing waiting).
    if (withdrawals.length > 0)
      stub.withdraw(withdrawals).catch((e: unknown) => {
        this.renew(stub, 'gate.withdraw_failed', undefined, e);
      });
    if (asks.length === 0 && releases.length === 0) return;
    for (const a of asks) a.state = 'exchange';
    let grants: (Grant | null)[];
    try {
      grants = await stub.exchange(
        releases,
        asks.map((a) => a.id),
        tenant,
        limits,
      );
    } catch (e) {
      // One by one instead (a gate object still on code without `exchange` during a deploy, a lost reply, a
      // broken stub): each release on its own, each ask its turn in `acquire`, which lets it through (its slot
      // given back) if that fails too. A release that fails again expires on its own (DEFAULT_LEASE_MS). A
      // withdrawn ask's slot, granted if the gate applied the exchange before its reply was lost, is given back
      // (the gate ignores an id it holds no lease for).
      const next = this.renew(
        stub,
        asks.length > 0 ? 'gate.exchange_failed' : 'gate.release_failed',
        asks[0]?.callId,
        e,
      );
      for (const r of releases) next.release(r.id, r.outcome).catch(() => undefined);
      // The exchange was each ask's first try: `acquire` through the fresh stub is its last.
      for (const a of asks)
        if (!withdrawn(a)) void this.waitTurn(a, true);
        else next.release(a.id, 'failed').catch(() => undefined);
      return;
    }
    asks.forEach((a, i) => {
      if (grants[i]) this.granted(a);
      else if (!withdrawn(a)) void this.waitTurn(a);
    });
  }

  /**
   * An ask the gate could not grant at once: it waits its turn (fair across tenants) in `acquire`. An RPC that
   * fails is asked again once (`again`: this is that last try), through a fresh stub; a second failure lets the
   * attempt through without a slot. The last try's failure neither logs nor replaces the stub it was made on: that
   * stub is one RPC old, and `gate.unavailable` says what happened (one warning and one fresh stub per break).
   */
  private async waitTurn(a: Ask, again = false): Promise<void> {
    a.state = 'waiting';
    const stub = this.stub;
    let grant: Grant | null;
    try {
      grant = await stub.acquire(a.id, this.of.tenant, this.of.limits);
    } catch (e) {
      if (!again) this.renew(stub, 'gate.acquire_failed', a.callId, e);
      if (withdrawn(a)) {
        // Its holder was answered. A gate object that outlived the lost connection may still hold the ask (or
        // grant it later): withdrawn there and any slot given back, in that order (one stub delivers in order).
        this.withdrawals.push(a.id);
        this.release(a.id, 'failed');
        return;
      }
      if (!again && !overloaded(e)) return this.waitTurn(a, true);
      this.warn('gate.unavailable', a.callId, e);
      // Let through without a slot. A failed ask may still wait at the gate (its acquire reached a gate that
      // outlived the lost connection): withdrawn there, or a later grant would hold a slot nobody uses until
      // its lease ends (5 min). It may have been granted with its reply lost: that slot is given back. In that
      // order, on one stub (it delivers in order); the gate ignores an id it holds nothing for. Sent on the stub
      // as it is, not through `flush`, whose failure would replace the stub and log once more.
      const current = this.stub;
      current.withdraw([a.id]).catch(() => undefined);
      current.release(a.id, 'failed').catch(() => undefined);
      a.state = 'granted';
      a.off();
      a.resolve(NO_SLOT);
      return;
    }
    // Null: withdrawn there, after its holder was answered here.
    if (grant) this.granted(a);
  }

  /** A grant: the holder's lease, or given back unused when the ask was withdrawn meanwhile. */
  private granted(a: Ask): void {
    if (withdrawn(a)) {
      this.release(a.id, 'failed');
      return;
    }
    a.state = 'granted';
    a.off();
    let released = false;
    a.resolve({
      release: (outcome) => {
        if (released) return;
        released = true;
        this.release(a.id, outcome);
      },
    });
  }

  /**
   * After an RPC on `used` failed: the stub to go on with. The first failure seen on the current stub replaces
   * it with a fresh one and logs `event` (once per stub: the RPCs still out on it fail too, and find it replaced).
   */
  private renew(used: GateStub, event: string, callId: string | undefined, e: unknown): GateStub {
    if (used === this.stub) {
      this.stub = this.of.connect();
      this.warn(event, callId, e);
    }
    return this.stub;
  }

  private warn(event: string, callId: string | undefined, e: unknown): void {
    const { evaluationId, provider } = this.of;
    log('warn', event, { evaluationId, callId, provider, error: messageOf(e) });
  }
}
