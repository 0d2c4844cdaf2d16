/**
 * @module
 * The wave coordinator's logic (the Durable Object in durable-objects/wave-coordinator/ is its thin driver):
 * one per (group, provider, model). Items register their ready calls; a wave closes (see {@link WaveTimings});
 * its lines are split into files by `planBatchFiles`; each file goes `planned → uploaded → submitted →
 * delivered`, each step stored before the next begins, so a coordinator that restarts mid-way neither uploads
 * nor submits twice (`findBatch` by the part's metadata before creating again, once a creation was tried); a
 * submitted batch is polled with backoff; at a terminal status its files are handed over (./delivery.ts: each
 * outcome to its item, matched by `custom_id`, never by order; lines the batch never answered as retryable
 * failures). The items decide retries (the next wave) and store results idempotently.
 */
import type { Batch } from 'openai/resources/batches';
import type { FileObject } from 'openai/resources/files';
import type { BatchApiResult, BatchClient } from '../llm/batch-client.js';
import { isTerminalBatch } from '../llm/batch-client.js';
import { planBatchFiles } from '../llm/batch-files.js';
import { customIdFor } from '../llm/custom-id.js';
import type { BatchInputLine } from '../llm/request.js';
import { log } from '../log/log.js';
import type { WaveCall, WaveResult } from './rpc.js';
import { parseCoordinatorName } from './rpc.js';
import type { PartRow } from './store.js';
import { WaveStore } from './store.js';
import { collectPart } from './delivery.js';

/** When waves close and how batches are polled (ms; `BATCH_WAVE_*`, `BATCH_POLL_*`). */
export interface WaveTimings {
  /** A wave closes this long after its last new call. */
  quietMs: number;
  /** A wave closes at the latest this long after its first call. */
  maxWaitMs: number;
  /** First poll after a submission; the wait doubles from here, and is back to it near the end ({@link nearEnd}). */
  pollMinMs: number;
  /** The longest wait between polls. */
  pollMaxMs: number;
}

/** What the coordinator needs from its platform. */
export interface CoordinatorDeps {
  sql: SqlStorage;
  storage: DurableObjectStorage;
  /** The provider's Batch API client (made once, on first use). */
  client: () => BatchClient;
  /** Hands results to their item; answers the item's next calls for this coordinator. */
  deliver: (evaluationId: string, results: WaveResult[]) => Promise<WaveCall[]>;
  timings: () => WaveTimings;
  now?: () => number;
  /** Called once a part's upload is stored, before its batch is created (tests crash here). */
  afterUpload?: () => void;
  /** How many items the group has (its batch's), or null when unknown: its first wave closes once all registered. */
  groupSize?: () => Promise<number | null>;
}

/** The metadata key naming a part, so a batch whose creation's answer was lost is found again. */
export const WAVE_METADATA_KEY = 'tribunal_wave';

/**
 * True when a batch not yet terminal is about to be: the provider writes its output (`finalizing`), or every
 * line has run. It is then polled at the shortest wait, not the backoff's (up to `BATCH_POLL_MAX_MS`, which
 * would add up to that much to every wave).
 */
export function nearEnd(batch: Pick<Batch, 'status' | 'request_counts'>): boolean {
  const counts = batch.request_counts;
  return (
    batch.status === 'finalizing' ||
    (batch.status === 'in_progress' &&
      counts !== undefined &&
      counts.total > 0 &&
      counts.completed + counts.failed >= counts.total)
  );
}

/** The coordinator of one (group, provider, model). */
export class WaveCoordinator {
  private readonly store: WaveStore;
  private readonly now: () => number;
  /** The group's item count, once read (null: unknown). */
  private size: number | null | undefined;
  /** When {@link size} was read (epoch ms). */
  private sizeReadAt = 0;
  /** Files of delivered parts, deleted at the end of the step (input, output and error files). */
  private readonly spentFiles: string[] = [];

  constructor(
    private readonly name: string,
    private readonly deps: CoordinatorDeps,
  ) {
    this.store = new WaveStore(deps.sql);
    this.now = deps.now ?? Date.now;
  }

  /** Registers calls (see `WaveCoordinatorRpc.register`); true when a step is due (arm the alarm). */
  register(evaluationId: string, calls: readonly WaveCall[]): boolean {
    const at = this.now();
    let added = 0;
    for (const c of calls) {
      const id = customIdFor(evaluationId, c.callId);
      // The line is serialized only for a call not registered yet (a repeat registration is common).
      if (this.store.open(id, evaluationId, c.callId, c.attempt, () => JSON.stringify({ ...c.line, custom_id: id })))
        added += 1;
    }
    if (added > 0) this.store.opened(at);
    // A lone evaluation is its own group: nobody else's calls are coming.
    if (added > 0 && parseCoordinatorName(this.name).group === evaluationId) this.store.closeSoon();
    return added > 0;
  }

  /**
   * Withdraws an ended evaluation's calls; a step is due (a batch may now be cancelled).
   * @returns the call ids whose lines may run all the same: their outcomes are still delivered
   */
  withdraw(evaluationId: string): string[] {
    return this.store.withdraw(evaluationId);
  }

  /**
   * One step: close the open wave when due, move every part forward. Never throws for provider trouble (a
   * failed request is tried again later).
   * @returns when the next step is due (epoch ms), or null when nothing is left to do
   */
  async step(): Promise<number | null> {
    const t = this.deps.timings();
    await this.closeIfDue(t);
    for (const part of this.store.activeParts()) await this.advance(part, t);
    // A delivery that completed the round asked for the next wave: it goes out in this step, not an alarm later.
    if (await this.closeIfDue(t))
      for (const part of this.store.activeParts()) if (part.state === 'planned') await this.advance(part, t);
    await this.cleanUp();
    return this.nextStep(t);
  }

  /** Closes the open wave when it is due; true when it closed one. */
  private async closeIfDue(t: WaveTimings): Promise<boolean> {
    const due = await this.openDue(t);
    const now = this.now();
    if (due === null || due > now) return false;
    this.closeWave(this.store.meta().waves + 1, now);
    return true;
  }

  /**
   * When the next step is due (epoch ms, at least 1 ms from now), or null when nothing is left to do. A
   * registration arms the alarm for it, not for at once: while a group's first wave waits for its items, a step
   * per registration (200 at 200 items) would only find the wave not yet due, beside the items' own starts.
   */
  async nextDue(): Promise<number | null> {
    return this.nextStep(this.deps.timings());
  }

  private async nextStep(t: WaveTimings): Promise<number | null> {
    const times = this.store.activeParts().map((p) => p.next_at);
    const due = await this.openDue(t);
    if (due !== null) times.push(due);
    return times.length > 0 ? Math.max(this.now() + 1, Math.min(...times)) : null;
  }

  /**
   * When the open wave closes (epoch ms), or null when no call is open: at once when asked (`closeSoon`),
   * else {@link WaveTimings.quietMs} after its last new call, at the latest {@link WaveTimings.maxWaitMs}
   * after its first. A group's first wave also closes at once when every item of the group not yet ended
   * has registered, and until then it waits past the quiet (up to the max wait): a batch's items start over
   * seconds on a loaded runtime, and a first wave closed on a gap splits the group into two cohorts a wave
   * apart for the whole chain (8 waves for 4 rounds at 200 items). An item that never registers here (its
   * calls go to another model's coordinator) costs that coordinator's first wave the max wait, 30 s by
   * default, against a provider's turnaround of minutes to hours.
   */
  private async openDue(t: WaveTimings): Promise<number | null> {
    const meta = this.store.meta();
    if (meta.first_open_at === null || this.store.openCount() === 0) return null;
    const now = this.now();
    if (meta.close_now === 1) return now;
    const latest = meta.first_open_at + t.maxWaitMs;
    const quiet = Math.min(latest, (meta.last_open_at ?? now) + t.quietMs);
    if (meta.waves > 0 || !this.deps.groupSize) return quiet;
    const registered = this.store.openEvaluations();
    // Read once, then again at most once a quiet interval while short: items that end unregistered drop out.
    if (
      this.size === undefined ||
      (this.size !== null && registered < this.size && now >= this.sizeReadAt + t.quietMs)
    ) {
      this.size = await this.deps.groupSize();
      this.sizeReadAt = now;
    }
    if (this.size === null) return quiet;
    if (registered >= this.size) return now;
    return Math.min(latest, Math.max(quiet, this.sizeReadAt + t.quietMs));
  }

  private closeWave(wave: number, now: number): void {
    const meta = this.store.meta();
    const items = this.store.openEvaluations();
    const open = this.store.openLines();
    const files = planBatchFiles(open.map((r) => JSON.parse(r.line) as BatchInputLine));
    this.store.startWave(
      wave,
      files.map((f) => f.customIds),
      now,
      this.deps.storage,
    );
    log('info', 'wave.closed', {
      coordinator: this.name,
      wave,
      calls: open.length,
      items,
      files: files.length,
      // How long the wave stayed open: since its first and its last registration.
      openMs: now - (meta.first_open_at ?? now),
      quietMs: now - (meta.last_open_at ?? now),
    });
  }

  private partKey(p: Pick<PartRow, 'wave' | 'part'>): string {
    return `${this.name}#${p.wave}.${p.part}`;
  }

  private retryLater(p: PartRow, why: string, t: WaveTimings): void {
    log('warn', 'wave.retry', { coordinator: this.name, wave: p.wave, part: p.part, error: why });
    this.store.setPart(p.wave, p.part, { next_at: this.now() + t.pollMinMs });
  }

  /**
   * Uploads a part's file, or finds the one an earlier try left: the name is the part's, so when an upload was
   * tried before (noted before its request) and its answer lost, a `purpose=batch` file of that name and size
   * is that upload, and it is reused instead of stored twice.
   */
  private async upload(p: PartRow, text: string): Promise<BatchApiResult<FileObject>> {
    const filename = `${this.partKey(p).replace(/[^A-Za-z0-9._-]/g, '-')}.jsonl`;
    const client = this.deps.client();
    if (this.store.wasTried(p.wave, p.part, 'upload')) {
      const found = await client.findFile(filename, new TextEncoder().encode(text).byteLength);
      if (!found.ok) return found;
      if (found.value) {
        log('info', 'wave.upload_found', {
          coordinator: this.name,
          wave: p.wave,
          part: p.part,
          fileId: found.value.id,
        });
        return { ok: true, value: found.value };
      }
    }
    this.store.tried(p.wave, p.part, 'upload', this.now());
    return client.uploadFile(text, filename);
  }

  /** Moves one part as far as it can go now. */
  private async advance(p: PartRow, t: WaveTimings): Promise<void> {
    const now = this.now();
    if (p.state === 'planned') {
      if (p.next_at > now) return;
      if (this.store.sentCount(p.wave, p.part) === 0) {
        // Every item of the part ended before it went out: nothing to send.
        this.store.setPart(p.wave, p.part, { state: 'delivered' });
        return;
      }
      const text = this.store.partLines(p.wave, p.part).join('\n') + '\n';
      const up = await this.upload(p, text);
      if (!up.ok) {
        this.retryLater(p, up.error.message, t);
        return;
      }
      this.store.setPart(p.wave, p.part, { state: 'uploaded', file_id: up.value.id });
      p = { ...p, state: 'uploaded', file_id: up.value.id };
      this.deps.afterUpload?.();
    }
    if (p.state === 'uploaded' && p.file_id !== null) {
      const key = this.partKey(p);
      let batch: Batch | null = null;
      // A creation tried before may have left a batch behind (its answer lost): find it before creating another.
      // Only then: the lookup pages through the account's batches, which a normal creation need not do.
      if (this.store.wasTried(p.wave, p.part, 'create')) {
        const found = await this.deps.client().findBatch((b) => b.metadata?.[WAVE_METADATA_KEY] === key);
        if (!found.ok) {
          this.retryLater(p, found.error.message, t);
          return;
        }
        batch = found.value;
        if (batch)
          log('info', 'wave.batch_found', { coordinator: this.name, wave: p.wave, part: p.part, batchId: batch.id });
      }
      if (!batch && this.store.sentCount(p.wave, p.part) === 0) {
        // Every item of the part ended before it was submitted: nothing to run.
        this.store.setPart(p.wave, p.part, { state: 'delivered' });
        const r = await this.deps.client().deleteFile(p.file_id);
        if (!r.ok) log('info', 'wave.file_kept', { coordinator: this.name, fileId: p.file_id, error: r.error.message });
        return;
      }
      if (!batch) {
        this.store.tried(p.wave, p.part, 'create', this.now());
        const made = await this.deps.client().createBatch(p.file_id, { [WAVE_METADATA_KEY]: key });
        if (!made.ok) {
          this.retryLater(p, made.error.message, t);
          return;
        }
        batch = made.value;
      }
      const at = this.now();
      this.store.setPart(p.wave, p.part, {
        state: 'submitted',
        batch_id: batch.id,
        submitted_at: at,
        polls: 0,
        next_at: at + t.pollMinMs,
      });
      log('info', 'wave.submitted', { coordinator: this.name, wave: p.wave, part: p.part, batchId: batch.id });
      return;
    }
    const batchId = p.batch_id;
    if (p.state !== 'submitted' || batchId === null) return;
    if (p.cancel_sent === 0 && this.store.sentCount(p.wave, p.part) === 0) {
      // Every item of the batch ended (a cancel): the provider stops the lines not yet run.
      const cancelled = await this.deps.client().cancelBatch(batchId);
      if (cancelled.ok || !cancelled.error.retryable) {
        this.store.setPart(p.wave, p.part, { cancel_sent: 1, next_at: now });
        p = { ...p, next_at: now };
        log('info', 'wave.cancelled', { coordinator: this.name, wave: p.wave, batchId });
      }
    }
    if (p.next_at > now) return;
    const got = await this.deps.client().getBatch(batchId);
    if (!got.ok) {
      this.retryLater(p, got.error.message, t);
      return;
    }
    if (!isTerminalBatch(got.value)) {
      const wait = nearEnd(got.value) ? t.pollMinMs : Math.min(t.pollMaxMs, t.pollMinMs * 2 ** (p.polls + 1));
      this.store.setPart(p.wave, p.part, { polls: p.polls + 1, next_at: this.now() + wait });
      return;
    }
    const terminalAt = this.now();
    const handed = await collectPart(
      {
        coordinator: this.name,
        store: this.store,
        now: this.now,
        readFile: (fileId) => this.deps.client().readFile(fileId),
        deliver: this.deps.deliver,
        register: (evaluationId, calls) => this.register(evaluationId, calls),
      },
      p,
      got.value,
    );
    if (!handed) {
      this.retryLater(p, 'delivery incomplete', t);
      return;
    }
    this.store.setPart(p.wave, p.part, { state: 'delivered' });
    log('info', 'wave.delivered', {
      coordinator: this.name,
      wave: p.wave,
      part: p.part,
      status: got.value.status,
      polls: p.polls + 1,
      sinceSubmitMs: terminalAt - (p.submitted_at ?? terminalAt),
      deliveryMs: this.now() - terminalAt,
      ...handed,
    });
    // Deleted once the next wave is out ({@link cleanUp}): the files are not on the way to the next verdict.
    this.spentFiles.push(...[p.file_id, got.value.output_file_id, got.value.error_file_id].filter((f) => f != null));
    // Every item that got results has answered with its next calls: the next wave need not wait for quiet.
    if (this.store.activeParts().every((q) => q.state === 'delivered' || q.state === 'planned')) this.store.closeSoon();
  }

  /**
   * Deletes delivered parts' files (best effort: the provider drops them after 30 days anyway, and a restart
   * that forgets them here leaves them to that).
   */
  private async cleanUp(): Promise<void> {
    for (let id = this.spentFiles.shift(); id !== undefined; id = this.spentFiles.shift()) {
      const r = await this.deps.client().deleteFile(id);
      if (!r.ok) log('info', 'wave.file_kept', { coordinator: this.name, fileId: id, error: r.error.message });
    }
  }
}
