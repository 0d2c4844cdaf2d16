/**
 * @module
 * A Worker isolate's lease of provider-gate slots: a slot the gate granted at once (nobody waiting) is kept in this
 * isolate after its attempt ended well, for the same tenant's next attempt to the same gate shard, so a single-call
 * evaluation's attempt does not ask the gate object for a slot and give it back (two RPCs) when one of its tenant's
 * attempts just ended in this isolate. The gate still counts the slot as held the whole time; only who uses it changes.
 *
 * Bounds, so the gate's window and its turns across tenants still hold:
 * - **Same tenant, same shard.** A kept slot serves only attempts of the tenant it was granted to, at the shard that
 *   granted it: no tenant gets a slot the gate's round robin did not give it.
 * - **Young slots only.** A slot is reused only within {@link LeasePoolOptions.reuseMs} of its grant, then goes back
 *   with its attempt. So a tenant holds a slot at most that long (plus one attempt) past the gate's last say; a tenant
 *   that starts waiting at the gate meanwhile waits that much longer at most, and the reaper's lease lifetime (5 min)
 *   is never reached by reuse.
 * - **Only uncontended slots.** A slot granted after a wait is never kept, and once a gate shard refused an ask from
 *   this isolate (its window was full or others waited), no tenant keeps a slot of it for `reuseMs`: what is kept
 *   goes back at once, and slots go back as they end.
 * - **Idle slots go back soon.** A kept slot no attempt takes within {@link LeasePoolOptions.idleMs} goes back to the
 *   gate (the window counts it held meanwhile).
 * - **Every outcome reaches the gate.** A 429 or a failure gives the slot back at once with its outcome (a 429 cuts
 *   the window as before); the successes on a kept slot travel with its release (`oks`), so the window still grows.
 *   One difference: an attempt on a kept slot carries the epoch of the slot's grant, so a 429 on it after a cut made
 *   meanwhile does not cut again (as for an attempt that was in flight across the cut).
 *
 * Platform-free: the Worker's side (./worker-gate.ts) holds one pool per isolate and does the RPCs.
 */

/** Options of a {@link LeasePool}. */
export interface LeasePoolOptions {
  /** A slot is reused only this long after the gate granted it, ms; 0 turns reuse off. */
  reuseMs: number;
  /** A kept slot no attempt took goes back after this long, ms. */
  idleMs: number;
  /** Clock, epoch ms. Default `Date.now`. */
  now?: () => number;
}

/** A slot this isolate holds from the gate. */
export interface HeldSlot {
  /** The gate's lease id (the attempt it was granted for). */
  readonly id: string;
  /** When the gate granted it, epoch ms. */
  readonly grantedAt: number;
  /** Successful attempts on it not reported to the gate yet. */
  oks: number;
  /** Since when it has been kept unused, epoch ms (set when kept). */
  idleSince: number;
}

/** Where a slot is from and whose it is: the gate shard's name and the tenant. */
export interface SlotKey {
  shard: string;
  tenant: string;
}

const keyOf = (k: SlotKey) => `${k.shard}\u0000${k.tenant}`;

/** Slots kept for reuse, by gate shard and tenant. */
export class LeasePool {
  private readonly kept = new Map<string, HeldSlot[]>();
  /** Gate shards that refused an ask, until when reuse is off for them (epoch ms). */
  private readonly contended = new Map<string, number>();
  /** Keys whose sweep is armed, since when (epoch ms): one timer per key in the isolate, not one per evaluation. */
  private readonly sweeps = new Map<string, number>();
  private readonly now: () => number;

  constructor(readonly options: LeasePoolOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Whether reuse is on at all. */
  get enabled(): boolean {
    return this.options.reuseMs > 0;
  }

  /** A newly granted slot. @param waited whether the ask waited for it (a contended window). */
  granted(id: string, waited: boolean): HeldSlot {
    const at = this.now();
    // A slot granted after a wait is never reused: it is born old.
    return { id, grantedAt: waited ? at - this.options.reuseMs : at, oks: 0, idleSince: at };
  }

  /**
   * The gate shard `shard` refused an ask at once (its window is full, or others wait): for a while nothing is kept
   * for any tenant of it, and what is kept goes back (returned: the caller gives them back).
   */
  contend(shard: string): HeldSlot[] {
    if (!this.enabled) return [];
    this.contended.set(shard, this.now() + this.options.reuseMs);
    const back: HeldSlot[] = [];
    for (const [key, slots] of this.kept)
      if (key.startsWith(`${shard}\u0000`)) {
        back.push(...slots);
        this.kept.delete(key);
      }
    return back;
  }

  /** A kept slot of `k` young enough to reuse, taken out of the pool; null when there is none. */
  take(k: SlotKey): HeldSlot | null {
    const key = keyOf(k);
    const slots = this.kept.get(key);
    if (!slots) return null;
    const now = this.now();
    // The youngest first: it has the most reuse left; the old ones go back with the next sweep.
    for (let i = slots.length - 1; i >= 0; i--) {
      const s = slots[i];
      if (s && now - s.grantedAt < this.options.reuseMs) {
        slots.splice(i, 1);
        if (slots.length === 0) this.kept.delete(key);
        return s;
      }
    }
    return null;
  }

  /**
   * The attempt on `slot` ended well: keeps the slot for the key's next attempt when it may be (true: its success
   * is counted in `oks`, and the caller sweeps after {@link LeasePoolOptions.idleMs}); false: the caller gives it back
   * now with that success as its outcome.
   */
  keep(k: SlotKey, slot: HeldSlot): boolean {
    const now = this.now();
    if (!this.enabled || now - slot.grantedAt >= this.options.reuseMs) return false;
    const until = this.contended.get(k.shard);
    if (until !== undefined) {
      if (now < until) return false;
      this.contended.delete(k.shard);
    }
    const key = keyOf(k);
    slot.oks += 1;
    slot.idleSince = now;
    const slots = this.kept.get(key);
    if (slots) slots.push(slot);
    else this.kept.set(key, [slot]);
    return true;
  }

  /** The kept slots of `k` to give back now: idle for `idleMs`, or too old to reuse. */
  expired(k: SlotKey): HeldSlot[] {
    const key = keyOf(k);
    const slots = this.kept.get(key);
    if (!slots) return [];
    const now = this.now();
    const { idleMs, reuseMs } = this.options;
    const back = slots.filter((s) => now - s.idleSince >= idleMs || now - s.grantedAt >= reuseMs);
    if (back.length === 0) return [];
    const stay = slots.filter((s) => !back.includes(s));
    if (stay.length === 0) this.kept.delete(key);
    else this.kept.set(key, stay);
    return back;
  }

  /**
   * Whether the caller is to arm the sweep of `k` (none is armed; or the one armed has not run for 4 idle times: its
   * invocation is gone), recorded as armed now. The sweep calls {@link swept} first.
   */
  armSweep(k: SlotKey): boolean {
    const key = keyOf(k);
    const now = this.now();
    const at = this.sweeps.get(key);
    if (at !== undefined && now - at < 4 * this.options.idleMs) return false;
    this.sweeps.set(key, now);
    return true;
  }

  /** The sweep of `k` ran. */
  swept(k: SlotKey): void {
    this.sweeps.delete(keyOf(k));
  }

  /** Whether slots of `k` are kept. */
  holds(k: SlotKey): boolean {
    return this.kept.has(keyOf(k));
  }

  /** Slots kept now, over every key (tests). */
  size(): number {
    let n = 0;
    for (const slots of this.kept.values()) n += slots.length;
    return n;
  }
}
