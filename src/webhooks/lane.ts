/**
 * @module
 * Delivery lanes: one per receiver, each a Durable Object (`WebhookLaneDO`, durable-objects/webhook-lane/)
 * that runs its receiver's attempts (./deliver.ts), at most `WEBHOOK_CONCURRENCY` at once, each for as long
 * as it takes (up to `WEBHOOK_TIMEOUT_MS`), and holds their retries until they are due.
 *
 * Why: a queue consumer's invocation lasts until every message of its batch is handled, and Cloudflare
 * acknowledges a batch only after the `waitUntil` promises of that invocation too; the local runtime also
 * delivers a queue's next batch only once the previous one has returned. A receiver that hangs for its
 * whole timeout held every other delivery of its batch, and every batch after it, whoever they were for.
 * Now the queue only carries a delivery id to its receiver's lane ({@link handOver}: a read and an RPC,
 * milliseconds), and a slow receiver fills only its own lane's slots.
 *
 * A receiver is an endpoint (`ep:<endpoint id>`) or one tenant's one-off URLs to one origin
 * (`url:<tenant>:<origin>`), or a feature's own recipient of one tenant (`otlp:<tenant>`): tenants never share a
 * lane. A receiver has `WEBHOOK_LANES` lanes (32), a delivery going to the one its evaluation hashes to
 * ({@link laneKeyOf}), so one lane's 6 connections never bound a busy receiver's throughput, and a receiver gets
 * at most `WEBHOOK_LANES` × `WEBHOOK_CONCURRENCY` requests at once from us, never a flood; a hanging receiver
 * holds only its own lanes. A run's attempts all go out from its alarm's one invocation, so
 * never more than {@link MAX_ATTEMPTS_PER_INVOCATION} (6) are in flight: Workers open 6 connections at once per
 * invocation, and a 7th attempt would wait unsent while its timeout ran.
 *
 * The lane's table holds each delivery it owns with the time it is due. Taking one makes it due now (a
 * repeat is harmless: every attempt claims the delivery in D1 first). The object's alarm runs the due
 * ones, launching the next as slots free and as new ones arrive, for at most {@link RUN_BUDGET_MS}, then
 * hands over to the next alarm. An attempt's outcome decides the row: gone once delivered, failed, erased
 * or no longer pending; due again at the retry's time (no queue delay limit applies: the alarm holds it);
 * due at the lease's end while another attempt holds it. Lost state loses nothing: a delivery's D1 row
 * stays due and the cron sweeper hands it to the lane again; a run that is lost (its alarm cancelled or
 * hung) is replaced at the next hand-over ({@link staleRunMs}).
 */
import type { Bindings } from '../config/bindings.js';
import { configOf } from '../config/vars.js';
import { backoffDelay } from '../backoff/backoff.js';
import { log, messageOf } from '../log/log.js';
import type { AttemptOutcome } from './deliver.js';
import { attemptDelivery } from './deliver.js';
import { deliveryLeaseMs } from './send.js';
import { recordDb } from '../config/d1-shards.js';
import { fnv1a } from '../config/d1-buckets.js';
import { MAX_ATTEMPTS_PER_INVOCATION } from '../config/platform-limits.js';

/** The lane object's RPC. */
export interface WebhookLaneRpc {
  /** Makes deliveries `ids` (of this lane's receiver) due now and sees that they are attempted. */
  take(ids: readonly string[]): Promise<void>;
}

/**
 * How long one alarm keeps launching attempts, ms (60 s); attempts already launched always finish (each
 * within `WEBHOOK_TIMEOUT_MS`), then the next alarm takes over. Alarms have 15 min of wall time.
 */
export const RUN_BUDGET_MS = 60_000;

/** Consecutive failures of the platform (D1 down) after which a lane drops a delivery to the sweeper: 10. */
export const MAX_LANE_FAILURES = 10;

/**
 * The wait before the retry of a run whose own storage failed, ms: 2 s after the first failure, doubling after
 * each consecutive one, at most 5 min (the lane's deliveries stay due in D1 for the sweeper meanwhile).
 */
export function laneRetryDelayMs(failures: number): number {
  return backoffDelay(failures, { base: 2_000, max: 300_000 });
}

/**
 * How long a run may go without launching or settling an attempt before it is taken for lost, ms: an
 * attempt's lease (`WEBHOOK_TIMEOUT_MS` + 30 s) plus 30 s. Past that no attempt it launched can still be
 * under way; its alarm's invocation was cancelled or hangs, and its `finally` will never clear the run.
 */
export function staleRunMs(env: object): number {
  return deliveryLeaseMs(env) + 30_000;
}

/** A delivery's receiver, and what spreads it over the receiver's lanes (its event's cause: the evaluation). */
export interface LaneReceiver {
  tenant: string;
  /** The endpoint id, `once` for the one-off URL, or a feature's own recipient (`otlp`). */
  target: string;
  endpoint_id: string | null;
  url: string | null;
  /** The id of the record whose ending wrote the delivery's event (absent: lane 0). */
  cause_id?: string | null;
}

/**
 * The lane of a delivery (see the module note): its receiver's key, spread over `lanes` (`WEBHOOK_LANES`) by an
 * FNV-1a hash of its event's cause, so one evaluation's deliveries keep one lane (and their order) and a busy
 * receiver's spread over all of them. Lane 0 keeps the receiver's own key, so one lane (`WEBHOOK_LANES` 1) is
 * the layout before the spread and deliveries held by it carry over.
 */
export function laneKeyOf(receiver: LaneReceiver, lanes: number): string {
  let key: string;
  if (receiver.endpoint_id !== null) key = `ep:${receiver.endpoint_id}`;
  else if (receiver.target !== 'once') key = `${receiver.target}:${receiver.tenant}`;
  else {
    let origin = receiver.url ?? '';
    try {
      origin = new URL(origin).origin;
    } catch {
      // A URL that does not parse fails its attempt; it still needs a lane to fail in.
    }
    key = `url:${receiver.tenant}:${origin}`;
  }
  const lane = lanes > 1 && receiver.cause_id ? fnv1a(receiver.cause_id) % lanes : 0;
  return lane === 0 ? key : `${key}#${lane}`;
}

/** The lane object of `key`. */
export function laneStub(env: Bindings, key: string): DurableObjectStub<WebhookLaneRpc & Rpc.DurableObjectBranded> {
  return env.WEBHOOK_LANE.get(env.WEBHOOK_LANE.idFromName(key));
}

/**
 * Hands delivery `id` to its receiver's lane (the queue consumer's work: one D1 read, one RPC). A delivery
 * that is gone or no longer pending needs nothing. Throws when D1 or the lane fails (the consumer retries).
 * @returns whether the delivery was handed over.
 */
export async function handOver(env: Bindings, id: string): Promise<boolean> {
  const receiver = await (
    await recordDb(env, id)
  )
    .prepare(
      `SELECT d.tenant, d.target, d.endpoint_id, d.url, e.cause_id FROM webhook_deliveries d
       LEFT JOIN webhook_events e ON e.id = d.event_id WHERE d.id = ? AND d.status = 'pending'`,
    )
    .bind(id)
    .first<LaneReceiver>();
  if (!receiver) return false;
  await laneStub(env, laneKeyOf(receiver, configOf(env).WEBHOOK_LANES)).take([id]);
  return true;
}

/** What the lane needs of its object: its SQLite and its alarm. */
export interface LaneStorage {
  readonly sql: SqlStorage;
  getAlarm(): Promise<number | null>;
  setAlarm(at: number): Promise<void>;
  deleteAlarm(): Promise<void>;
}

/** Makes one attempt (./deliver.ts `attemptDelivery`; tests pass their own). */
export type Attempt = (env: Bindings, id: string) => Promise<AttemptOutcome>;

/** An alarm's run under way in this instance. */
interface Run {
  /** When it started, and when it last launched or settled an attempt (epoch ms). */
  started: number;
  progressAt: number;
  /** Deliveries whose attempt it runs. */
  inFlight: Set<string>;
  /** Wakes it: an attempt settled, or a delivery arrived. */
  wake: (() => void) | null;
}

/** One receiver's deliveries, attempts and retries (see the module note). The object's state. */
export class DeliveryLane {
  /** The run under way, if any. A lost one ({@link staleRunMs}) is replaced, never waited for. */
  private current: Run | null = null;

  /** Consecutive runs that failed on the object's own storage ({@link laneRetryDelayMs}). */
  private runFailures = 0;

  constructor(
    private readonly storage: LaneStorage,
    private readonly env: Bindings,
    private readonly attempt: Attempt = attemptDelivery,
    /** The clock, epoch ms (tests pass their own). */
    private readonly now: () => number = Date.now,
  ) {
    storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS deliveries (
         id TEXT PRIMARY KEY, due_at INTEGER NOT NULL, failures INTEGER NOT NULL DEFAULT 0)`,
    );
  }

  /** See {@link WebhookLaneRpc.take}. */
  async take(ids: readonly string[]): Promise<void> {
    const now = this.now();
    for (const id of ids) {
      this.storage.sql.exec(
        `INSERT INTO deliveries (id, due_at) VALUES (?, ?)
         ON CONFLICT (id) DO UPDATE SET due_at = MIN(due_at, excluded.due_at)`,
        id,
        now,
      );
    }
    const run = this.current;
    if (run && !this.dropIfLost(run, now)) {
      run.wake?.();
      return;
    }
    // An alarm already due by now stays: moving it a few ms later (one take per delivery) raced its firing, and
    // workerd logged the alarm as overdue. It is one about to fire: a failed run arms its own retry, a real time
    // (see `run`), rather than leave its past one stored through the platform's backoff.
    const armed = await this.storage.getAlarm();
    if (armed === null || armed > now) await this.storage.setAlarm(now);
    // The lost run's alarm may still count as under way: the next run starts here, not after it.
    if (run) void this.run();
  }

  /** Deliveries held, and those attempted right now (for tests and logs). */
  stats(): { held: number; inFlight: number } {
    const held = this.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM deliveries').one().n;
    return { held, inFlight: this.current?.inFlight.size ?? 0 };
  }

  /**
   * Drops `run` with a warning when it went {@link staleRunMs} without progress at `now` (true), else
   * leaves it (false). Its deliveries' rows are due again by then (their leases ended), and the next run
   * sends them.
   */
  private dropIfLost(run: Run, now: number): boolean {
    if (now - run.progressAt < staleRunMs(this.env)) return false;
    this.current = null;
    log('warn', 'webhook.lane_stalled', {
      inFlight: run.inFlight.size,
      held: this.stats().held,
      stalledSeconds: Math.round((now - run.progressAt) / 1000),
      message: "a delivery run made no progress past its attempts' leases; a new run takes over",
    });
    return true;
  }

  /**
   * The alarm: runs the due deliveries (see the module note), then arms the alarm for the next one due. A run
   * whose storage fails arms its own retry ({@link laneRetryDelayMs}) instead of throwing: a handler that throws
   * leaves its alarm stored at its past time while the platform waits out its backoff, and {@link take}, which
   * keeps an alarm already due, left a new delivery waiting for that backoff. A real time, it brings forward.
   * It throws only when that arming fails too (the platform's retry is then what is left).
   */
  async run(): Promise<void> {
    const under = this.current;
    if (under && !this.dropIfLost(under, this.now())) return;
    const run: Run = { started: this.now(), progressAt: this.now(), inFlight: new Set(), wake: null };
    this.current = run;
    let failure: unknown = null;
    try {
      await this.runDue(run);
    } catch (e) {
      failure = e;
    }
    // Dropped as lost (dropIfLost): the run that replaced it owns the lane and its alarm.
    if (this.current !== run) return;
    this.current = null;
    if (failure === null) {
      try {
        await this.armNext();
        this.runFailures = 0;
        return;
      } catch (e) {
        failure = e;
      }
    }
    this.runFailures++;
    const delayMs = laneRetryDelayMs(this.runFailures);
    log('error', 'webhook.lane_run_failed', {
      failures: this.runFailures,
      error: messageOf(failure),
      next: `in ${String(delayMs / 1000)} s`,
    });
    await this.storage.setAlarm(this.now() + delayMs);
  }

  /** Launches the due deliveries of `run` as slots free, until none is in flight (see the module note). */
  private async runDue(run: Run): Promise<void> {
    for (;;) {
      // Dropped as lost (dropIfLost): the run that replaced it owns the lane.
      if (this.current !== run) return;
      const now = this.now();
      // Every attempt of a run goes out from this one invocation: never more at once than it has connections.
      const slots = Math.min(configOf(this.env).WEBHOOK_CONCURRENCY, MAX_ATTEMPTS_PER_INVOCATION);
      const room = slots - run.inFlight.size;
      if (room > 0 && now - run.started < RUN_BUDGET_MS) for (const id of this.due(now, room)) this.launch(run, id);
      if (run.inFlight.size === 0) return;
      await new Promise<void>((resolve) => {
        run.wake = resolve;
      });
      run.wake = null;
    }
  }

  /** Up to `limit` due deliveries, oldest due first. */
  private due(now: number, limit: number): string[] {
    return this.storage.sql
      .exec<{ id: string }>('SELECT id FROM deliveries WHERE due_at <= ? ORDER BY due_at LIMIT ?', now, limit)
      .toArray()
      .map((r) => r.id);
  }

  /** Starts the attempt of `id` in `run`; its row is due again at the lease's end should the run be lost. */
  private launch(run: Run, id: string): void {
    run.inFlight.add(id);
    run.progressAt = this.now();
    this.setDue(id, run.progressAt + deliveryLeaseMs(this.env));
    void this.attempt(this.env, id)
      .then(
        (outcome) => {
          this.settle(id, outcome);
        },
        (e: unknown) => {
          this.failed(id, e);
        },
      )
      .finally(() => {
        run.inFlight.delete(id);
        run.progressAt = this.now();
        run.wake?.();
      });
  }

  private settle(id: string, outcome: AttemptOutcome): void {
    if (outcome.kind === 'retry') this.setDue(id, outcome.at, 0);
    else if (outcome.kind === 'skipped' && (outcome.why === 'not_due' || outcome.why === 'leased'))
      this.setDue(id, outcome.dueAt);
    else this.storage.sql.exec('DELETE FROM deliveries WHERE id = ?', id);
  }

  /** The platform failed the attempt (D1): retried with a short backoff, then left to the sweeper. */
  private failed(id: string, e: unknown): void {
    const row = this.storage.sql
      .exec<{ failures: number }>('SELECT failures FROM deliveries WHERE id = ?', id)
      .toArray()[0];
    const failures = (row?.failures ?? 0) + 1;
    const giveUp = failures >= MAX_LANE_FAILURES;
    const delaySeconds = backoffDelay(failures, { base: 5, max: 300 });
    log('error', 'webhook.lane_error', {
      deliveryId: id,
      failures,
      error: messageOf(e),
      next: giveUp ? 'left to the sweeper' : `in ${delaySeconds} s`,
    });
    if (giveUp) this.storage.sql.exec('DELETE FROM deliveries WHERE id = ?', id);
    else this.setDue(id, this.now() + delaySeconds * 1000, failures);
  }

  private setDue(id: string, at: number, failures?: number): void {
    if (failures === undefined) this.storage.sql.exec('UPDATE deliveries SET due_at = ? WHERE id = ?', at, id);
    else this.storage.sql.exec('UPDATE deliveries SET due_at = ?, failures = ? WHERE id = ?', at, failures, id);
  }

  /** Arms the alarm for the next delivery due, or clears it when the lane holds none. */
  private async armNext(): Promise<void> {
    const next = this.storage.sql.exec<{ at: number | null }>('SELECT MIN(due_at) AS at FROM deliveries').one().at;
    if (next === null) await this.storage.deleteAlarm();
    else await this.storage.setAlarm(next);
  }
}
