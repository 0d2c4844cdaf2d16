/**
 * @module
 * One trace's storage, the logic of its Durable Object (durable-objects/trace/ is the thin driver): one object
 * per tenant and trace id, so storage grows with traces and no object or database takes every span.
 * - spans are kept by span id, the first copy winning: a re-export, a queue redelivery or a retried request
 *   adds nothing (idempotent on (traceId, spanId));
 * - the tenant's thin D1 index row (./index-rows.ts) is kept here (made when the trace is first seen, remade when
 *   its root span arrives) and answered with every append: the consumer writes the rows of a message's traces in
 *   one D1 batch, and a row unchanged writes nothing;
 * - the trace is kept for the tenant's retention after its last span (the object's alarm erases it and its
 *   index row; `retentionDays` 0 keeps it);
 * - a tenant that stores no content (`storeContent: false`): the spans' texts are kept until the trace's monitors
 *   have taken them, the quiet period (`TRACE_QUIET_MS`) after the trace's last span once its root span has ended
 *   (each new span restarts it; {@link CONTENT_HOLD_MAX_MS} at most while the root has not ended), then each
 *   becomes its sha-256 ({@link TraceStore.eraseContent}, ./content.ts);
 * - `DELETE /v1/traces/{id}` erases it all at once ({@link TraceStore.erase}) and leaves a tombstone, so a span
 *   arriving later (a queue redelivery, a re-export) is dropped rather than kept again, until the retention's
 *   deadline the trace had; its D1 tombstone, which keeps the index row out, lasts `TOMBSTONE_TTL_MS`
 *   (./index-rows.ts).
 */
import type { NormalizedSpan } from './span-schema.js';
import { NormalizedSpanSchema } from './span-schema.js';
import type { TraceIndexRow } from './index-rows.js';
import { CONSUMER_HOLD_MAX_MS, deleteIndexRow, tombstoneIndexRow } from './index-rows.js';
import { nanosToMs, treeOrder } from './tree.js';
import { scrubSql } from '../config/sqlite-scrub.js';
import { withoutContent } from './content.js';

/** A day in ms. */
const DAY_MS = 86_400_000;

/**
 * The longest a tenant that stores no content keeps a trace's texts while its root span has not ended: 15 min
 * after the first span held (the root ended, they go its quiet period after the trace's last span).
 */
export const CONTENT_HOLD_MAX_MS = 15 * 60_000;

/** What the store needs from its platform. */
export interface TraceStoreDeps {
  sql: SqlStorage;
  storage: DurableObjectStorage;
  /** The tenant's D1 database (`tenantDb`). */
  d1: (tenant: string) => D1Database;
  now?: () => number;
}

/**
 * A span as the trace's object takes it: its keys, and the normalized span as JSON text. Text is what the object
 * stores, and handing a string to an object costs a copy where a span's nested object costs a deep clone (the
 * clone was the largest CPU cost of storing spans: `npm run bench:traces`).
 */
export interface SpanRow {
  spanId: string;
  parentSpanId: string | null;
  startTimeUnixNano: string;
  /** The `NormalizedSpan` as JSON. */
  body: string;
}

/** The spans as rows for {@link TraceStore.append}. */
export function spanRows(spans: readonly NormalizedSpan[]): SpanRow[] {
  return spans.map((s) => ({
    spanId: s.spanId,
    parentSpanId: s.parentSpanId,
    startTimeUnixNano: s.startTimeUnixNano,
    body: JSON.stringify(s),
  }));
}

/** A stored span's body read back. */
function spanOf(body: string): NormalizedSpan {
  return NormalizedSpanSchema.parse(JSON.parse(body));
}

/**
 * A span body the spans consumer just wrote with {@link spanRows} from a span ingest had validated: read without
 * a second schema pass, which every new span of every export would otherwise pay.
 */
function ownSpan(body: string): NormalizedSpan {
  return JSON.parse(body) as NormalizedSpan;
}

/** What an append did. */
export interface AppendOutcome {
  /** Spans new to the trace (the rest were already kept). */
  added: number;
  /**
   * The trace's index row as it stands, for the caller to write (every answer carries it: a repeat heals a lost
   * write); null for a deleted trace, which keeps none, and for one whose retention ends within
   * `CONSUMER_HOLD_MAX_MS` (the write could land after the expiry's delete).
   */
  index: TraceIndexRow | null;
}

/** What an append did, for the trace's object itself: the new spans too (what monitors match). */
export interface Appended extends AppendOutcome {
  fresh: NormalizedSpan[];
  /** Whether the spans' texts await {@link TraceStore.eraseContent} (a tenant that stores no content). */
  holdsContent: boolean;
}

/** An evaluation made of the trace, as its object records it (the status and verdict are in D1). */
export interface TraceLink {
  evaluationId: string;
  /** The span judged; null for the whole trace. */
  spanId: string | null;
  monitorId: string | null;
}

/** A trace as read back: its spans in tree order (each with its depth), and the evaluations made of it. */
export interface StoredTrace {
  tenant: string;
  traceId: string;
  rootSpanId: string | null;
  spans: (NormalizedSpan & { depth: number })[];
  /** In the order they were recorded. */
  evaluations: TraceLink[];
}

/** One trace's object logic (see the module note). */
export class TraceStore {
  private readonly now: () => number;

  constructor(private readonly deps: TraceStoreDeps) {
    this.now = deps.now ?? Date.now;
    this.createTables();
  }

  /** The tables (again after the retention erased everything: the instance may live on). */
  private createTables(): void {
    this.deps.sql.exec(
      `CREATE TABLE IF NOT EXISTS spans (span_id TEXT PRIMARY KEY, parent_id TEXT, start_ns TEXT NOT NULL, body TEXT NOT NULL);
       CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
       CREATE TABLE IF NOT EXISTS evaluations (evaluation_id TEXT PRIMARY KEY, span_id TEXT, monitor_id TEXT, created_at INTEGER NOT NULL);`,
    );
  }

  private meta(key: string): string | null {
    const row = this.deps.sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0];
    return row?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.deps.sql.exec(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      key,
      value,
    );
  }

  /**
   * Keeps the spans not yet kept, remakes the index row when the trace is new or its root arrived, and arms the
   * retention alarm. Safe to repeat.
   * @param retentionDays the tenant's retention (days after the last span; 0 = until deleted).
   * @param storeContent false for a tenant that stores no content: the texts are erased once judged (see the module note).
   */
  async append(
    tenant: string,
    traceId: string,
    spans: readonly SpanRow[],
    retentionDays: number,
    storeContent = true,
  ): Promise<Appended> {
    this.claim(tenant, traceId);
    if (this.deleted()) return { added: 0, index: null, fresh: [], holdsContent: false };
    let added = 0;
    const fresh: NormalizedSpan[] = [];
    let root: NormalizedSpan | null = null;
    for (const s of spans) {
      const cursor = this.deps.sql.exec(
        'INSERT INTO spans (span_id, parent_id, start_ns, body) VALUES (?, ?, ?, ?) ON CONFLICT (span_id) DO NOTHING',
        s.spanId,
        s.parentSpanId,
        s.startTimeUnixNano,
        s.body,
      );
      if (cursor.rowsWritten > 0) {
        added += 1;
        const span = ownSpan(s.body);
        fresh.push(span);
        if (s.parentSpanId === null) root = span;
      }
    }
    const now = this.now();
    if (added > 0) this.setMeta('lastSpanAt', String(now));
    if (added > 0 && !storeContent) {
      this.setMeta('contentHeld', '1');
      if (this.meta('contentSince') === null) this.setMeta('contentSince', String(now));
    }
    if (root !== null) this.setMeta('root', root.spanId);
    const kept = this.meta('index');
    let index: TraceIndexRow | null = kept === null ? null : (JSON.parse(kept) as TraceIndexRow);
    if (index === null || root !== null) {
      const first = index === null && spans[0] ? ownSpan(spans[0].body) : null;
      index = {
        tenant,
        traceId,
        rootSpanId: root?.spanId ?? null,
        rootName: root?.name ?? null,
        service: root?.service ?? index?.service ?? first?.service ?? null,
        startedAt: nanosToMs(root?.startTimeUnixNano ?? first?.startTimeUnixNano ?? '0') || now,
        rootEndedAt: root?.endTimeUnixNano ? nanosToMs(root.endTimeUnixNano) : null,
        createdAt: index?.createdAt ?? now,
      };
      this.setMeta('index', JSON.stringify(index));
    }
    if (added > 0 && retentionDays > 0) {
      this.setMeta('expiresAt', String(now + retentionDays * DAY_MS));
      await this.rearm();
    } else if (this.expiresWithin(now, CONSUMER_HOLD_MAX_MS)) {
      // The consumer's write of this row could land after the expiry's delete and bring back a row whose trace is
      // gone: none, then. Its row was written when its spans were added (a redelivery adds none, and a retention
      // just set is a day at least away).
      index = null;
    }
    // A storing tenant's append reads nothing more (every span of every export passes here).
    return { added, index, fresh, holdsContent: !storeContent && this.meta('contentHeld') !== null };
  }

  /** Whether `DELETE /v1/traces/{id}` erased the trace (its tombstone). */
  deleted(): boolean {
    return this.meta('deletedAt') !== null;
  }

  /** Whether spans' texts await {@link eraseContent} (a tenant that stores no content). */
  holdsContent(): boolean {
    return this.meta('contentHeld') !== null;
  }

  /**
   * When held texts are hashed at the latest though the root span has not ended ({@link CONTENT_HOLD_MAX_MS} after
   * the first held), epoch ms; null when none are held.
   */
  contentHoldEnds(): number | null {
    const since = this.meta('contentSince');
    return since === null ? null : Number(since) + CONTENT_HOLD_MAX_MS;
  }

  /** When {@link eraseContent} last hashed texts (epoch ms), or null: a trace-scope judgment after it would see hashes. */
  contentErasedAt(): number | null {
    const at = this.meta('contentErasedAt');
    return at === null ? null : Number(at);
  }

  /**
   * Each span's texts replaced by their sha-256 (./content.ts), each old body overwritten in place first so the
   * file's free space keeps no copy (src/config/sqlite-scrub.ts). Idempotent: a hashed text stays as it is.
   */
  async eraseContent(): Promise<void> {
    const rows = this.deps.sql.exec<{ span_id: string; body: string }>('SELECT span_id, body FROM spans').toArray();
    // Cleared with the read, before the await (hashing opens the input gate): an append meanwhile sets it again,
    // so the spans it adds, which this read missed, are hashed by the next alarm rather than kept.
    this.deps.sql.exec("DELETE FROM meta WHERE key IN ('contentHeld', 'contentSince')");
    let bodies: { id: string; body: string }[];
    try {
      bodies = await Promise.all(
        rows.map(async (r) => ({ id: r.span_id, body: JSON.stringify(await withoutContent(ownSpan(r.body))) })),
      );
    } catch (err) {
      this.setMeta('contentHeld', '1'); // the alarm's retry hashes them
      throw err;
    }
    // No await from here on: the object's storage commits the whole erasure or none of it.
    for (const { id, body } of bodies) {
      this.deps.sql.exec(scrubSql('spans', ['body'], 'span_id = ?'), id);
      this.deps.sql.exec('UPDATE spans SET body = ? WHERE span_id = ?', body, id);
    }
    this.setMeta('contentErasedAt', String(this.now()));
  }

  /**
   * Erases the trace (`DELETE /v1/traces/{id}`): every span and record, its index row in D1, and leaves a tombstone
   * (tenant, trace id, when) so a later span is dropped and a repeat finds it deleted. Idempotent.
   * @returns false when this object never kept `tenant`'s trace.
   */
  async erase(tenant: string): Promise<boolean> {
    if (this.meta('tenant') !== tenant) return false;
    const traceId = this.meta('traceId') ?? '';
    if (!this.deleted()) {
      const expiresAt = this.meta('expiresAt');
      // One synchronous block, so the object's storage commits the wipe and the tombstone together (a crash
      // between would leave an empty object a redelivered span re-creates). Overwritten in place first: a plain
      // DELETE leaves the texts readable in the file's free space.
      this.deps.sql.exec(scrubSql('spans', ['body'], '1'));
      const tables = this.deps.sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB '_cf_*' AND name NOT GLOB 'sqlite_*'",
        )
        .toArray();
      for (const { name } of tables) this.deps.sql.exec(`DROP TABLE "${name}"`);
      this.createTables();
      this.setMeta('tenant', tenant);
      this.setMeta('traceId', traceId);
      this.setMeta('deletedAt', String(this.now()));
      // The tombstone goes with the retention's deadline, as the trace would have.
      if (expiresAt !== null) this.setMeta('expiresAt', expiresAt);
      if (expiresAt !== null) await this.rearm();
      else await this.deps.storage.deleteAlarm();
    }
    // After the tombstone: an append meanwhile answers no row to write back. A row answered before it and written
    // by its consumer after this delete is kept out by the tombstone in D1 (written with the delete).
    await tombstoneIndexRow(this.deps.d1(tenant), tenant, traceId, Number(this.meta('deletedAt') ?? this.now()));
    return true;
  }

  /** The tenant and trace id this object keeps, or null before anything arrived. */
  ids(): { tenant: string; traceId: string } | null {
    const tenant = this.meta('tenant');
    const traceId = this.meta('traceId');
    return tenant === null || traceId === null ? null : { tenant, traceId };
  }

  /** The root span once it arrived, else null. */
  root(): NormalizedSpan | null {
    const id = this.meta('root');
    if (id === null) return null;
    const row = this.deps.sql.exec<{ body: string }>('SELECT body FROM spans WHERE span_id = ?', id).toArray()[0];
    return row ? spanOf(row.body) : null;
  }

  /** Claims the object for `tenant`'s trace `traceId` the first time; @throws when another tenant's trace holds it. */
  private claim(tenant: string, traceId: string): void {
    const known = this.meta('tenant');
    if (known !== null && known !== tenant) throw new Error('trace object belongs to another tenant');
    if (known === null) {
      this.setMeta('tenant', tenant);
      this.setMeta('traceId', traceId);
    }
  }

  /** Sets (or, with null, clears) when the trace counts as complete, epoch ms; the alarm fires then. */
  async setQuietUntil(at: number | null): Promise<void> {
    if (at === null) this.deps.sql.exec("DELETE FROM meta WHERE key = 'quietUntil'");
    else this.setMeta('quietUntil', String(at));
    await this.rearm();
  }

  /** When the last new span was kept (epoch ms), or null before any. */
  lastSpanAt(): number | null {
    const at = this.meta('lastSpanAt');
    return at === null ? null : Number(at);
  }

  /** When the trace counts as complete (epoch ms, {@link setQuietUntil}), or null when not set. */
  quietUntil(): number | null {
    const at = this.meta('quietUntil');
    return at === null ? null : Number(at);
  }

  /** Whether the quiet period set by {@link setQuietUntil} is over. */
  quietDue(): boolean {
    const at = this.quietUntil();
    return at !== null && at <= this.now();
  }

  /** The one alarm at the earliest deadline: the retention's, the quiet period's. */
  private async rearm(): Promise<void> {
    const deadlines = [this.meta('expiresAt'), this.meta('quietUntil')]
      .map((v) => Number(v ?? '0'))
      .filter((v) => v > 0);
    if (deadlines.length > 0) await this.deps.storage.setAlarm(Math.min(...deadlines));
  }

  /** Every span kept, as the consumer stored them (validated at ingest: read without a second schema pass). */
  spans(): NormalizedSpan[] {
    return this.deps.sql
      .exec<{ body: string }>('SELECT body FROM spans')
      .toArray()
      .map((r) => ownSpan(r.body));
  }

  /** The trace, or null when this object keeps none (or another tenant's). */
  read(tenant: string): StoredTrace | null {
    if (this.meta('tenant') !== tenant || this.deleted()) return null;
    const rows = this.deps.sql.exec<{ body: string }>('SELECT body FROM spans').toArray();
    const spans = rows.map((r) => spanOf(r.body));
    const ordered = treeOrder(spans);
    return {
      tenant,
      traceId: this.meta('traceId') ?? '',
      rootSpanId: this.meta('root'),
      spans: ordered,
      evaluations: this.links(),
    };
  }

  /** The evaluations recorded on the trace, oldest first. */
  links(): TraceLink[] {
    return this.deps.sql
      .exec<{ evaluation_id: string; span_id: string | null; monitor_id: string | null }>(
        'SELECT evaluation_id, span_id, monitor_id FROM evaluations ORDER BY created_at, evaluation_id',
      )
      .toArray()
      .map((r) => ({ evaluationId: r.evaluation_id, spanId: r.span_id, monitorId: r.monitor_id }));
  }

  /**
   * Records an evaluation made of the trace (idempotent on its id). A trace whose spans have not arrived yet is
   * claimed for `tenant` here, so its spans find it; another tenant's trace object refuses.
   */
  link(tenant: string, traceId: string, link: TraceLink): void {
    this.claim(tenant, traceId);
    this.deps.sql.exec(
      'INSERT INTO evaluations (evaluation_id, span_id, monitor_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (evaluation_id) DO NOTHING',
      link.evaluationId,
      link.spanId,
      link.monitorId,
      this.now(),
    );
  }

  /** Whether the trace's retention ends within `ms` of `now` (or has ended); false when it is kept until deleted. */
  private expiresWithin(now: number, ms: number): boolean {
    const expiresAt = Number(this.meta('expiresAt') ?? '0');
    return expiresAt !== 0 && expiresAt - now <= ms;
  }

  /** Whether the trace is past its retention: the next {@link alarm} erases it. */
  expired(): boolean {
    return this.expiresWithin(this.now(), 0);
  }

  /** The alarm: past the retention, the trace and its index row are erased; else the next deadline is armed. */
  async alarm(): Promise<void> {
    if (!this.expired()) {
      await this.rearm();
      return;
    }
    const tenant = this.meta('tenant');
    const traceId = this.meta('traceId');
    if (tenant !== null && traceId !== null) await deleteIndexRow(this.deps.d1(tenant), tenant, traceId);
    await this.deps.storage.deleteAll();
    this.createTables();
  }
}
