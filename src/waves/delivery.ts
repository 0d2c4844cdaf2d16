/**
 * @module
 * A wave part's hand-over (./coordinator.ts): its terminal provider batch's output and error files are
 * streamed, each outcome matched to its call by `custom_id` (never by order) and handed to its item in one
 * RPC per item per chunk, {@link DELIVERY_LANES} items side by side; each item answers its next calls, which
 * are registered for the next wave. Lines the batch never answered go back as retryable failures.
 */
import type { Batch } from 'openai/resources/batches';
import type { BatchApiResult } from '../llm/batch-client.js';
import type { BatchLineOutcome } from '../llm/batch-lines.js';
import { log, messageOf } from '../log/log.js';
import type { WaveCall, WaveResult } from './rpc.js';
import type { PartRow, WaveStore } from './store.js';

/** What a part's hand-over needs from its coordinator. */
export interface DeliveryContext {
  /** The coordinator's name, for log lines. */
  coordinator: string;
  store: WaveStore;
  /** Epoch ms. */
  now: () => number;
  /** Streams a provider file's outcomes. */
  readFile: (fileId: string) => Promise<BatchApiResult<AsyncIterable<BatchLineOutcome>>>;
  /** Hands results to their item; answers the item's next calls for this coordinator. */
  deliver: (evaluationId: string, results: WaveResult[]) => Promise<WaveCall[]>;
  /** Registers an item's next calls (the next wave). */
  register: (evaluationId: string, calls: readonly WaveCall[]) => void;
}

/** What one part's hand-over took, for its `wave.delivered` log line (counts; ms). */
export interface DeliveryFigures {
  /** Outcomes handed to items. */
  results: number;
  /** RPCs to items (one per item per chunk). */
  deliveries: number;
  /** Next calls the items answered with (registered for the next wave). */
  answered: number;
  /** The slowest RPC to an item, ms. */
  rpcMsMax: number;
  /** The RPCs' summed time, ms (over {@link DELIVERY_LANES} side by side). */
  rpcMsSum: number;
  /** Opening the output and error files (the first bytes), ms. */
  readMs: number;
}

/**
 * Results handed to items per RPC round: a wave's file is streamed, never held whole. 2,048: a file of up to
 * that many lines reaches each item in one RPC (the output file lists lines shuffled, so a smaller chunk splits
 * an item's results over several RPCs: 256 made ~300 RPCs for 200 items' 400 lines, and the hand-over is
 * CPU-bound on RPCs), while the chunk stays a few MB (a debate turn's outcome is a few KB).
 */
const DELIVERY_CHUNK = 2048;
/**
 * Items handed their results at once (RPCs in flight). More do not help where the hand-over is CPU-bound (64
 * lanes took as long as 16 on the local runtime, each RPC 4× slower).
 */
const DELIVERY_LANES = 16;

/**
 * Reads a terminal batch's files and delivers every outcome.
 * @returns what was handed over (for the `wave.delivered` log line), or null when a line was not delivered
 */
export async function collectPart(c: DeliveryContext, p: PartRow, batch: Batch): Promise<DeliveryFigures | null> {
  const latencyMs = Math.max(0, c.now() - (p.submitted_at ?? c.now()));
  const buffer = new Map<string, { customIds: string[]; results: WaveResult[] }>();
  const figures: DeliveryFigures = { results: 0, deliveries: 0, answered: 0, rpcMsMax: 0, rpcMsSum: 0, readMs: 0 };
  let buffered = 0;
  let complete = true;
  const flush = async (): Promise<boolean> => {
    const batches = [...buffer];
    buffer.clear();
    buffered = 0;
    // Items take their results side by side: a wave's hand-over is not one RPC after another.
    let next = 0;
    const lane = async (): Promise<void> => {
      for (let entry = batches[next++]; entry !== undefined; entry = batches[next++]) {
        const [evaluationId, b] = entry;
        try {
          const began = c.now();
          const calls = await c.deliver(evaluationId, b.results);
          const rpcMs = c.now() - began;
          c.store.delivered(b.customIds);
          c.register(evaluationId, calls);
          figures.results += b.results.length;
          figures.deliveries += 1;
          figures.answered += calls.length;
          figures.rpcMsSum += rpcMs;
          figures.rpcMsMax = Math.max(figures.rpcMsMax, rpcMs);
        } catch (e) {
          // The item is unreachable now: its lines stay undelivered and the file is read again later.
          complete = false;
          log('warn', 'wave.delivery_failed', { coordinator: c.coordinator, evaluationId, error: messageOf(e) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(DELIVERY_LANES, batches.length) }, lane));
    return complete;
  };
  const add = async (customId: string, outcome: BatchLineOutcome): Promise<void> => {
    const row = c.store.call(customId);
    if (!row || row.wave !== p.wave || row.part !== p.part || row.state === 'delivered') return;
    const b = buffer.get(row.evaluation_id) ?? { customIds: [], results: [] };
    b.customIds.push(customId);
    b.results.push({ callId: row.call_id, attempt: row.attempt, outcome, latencyMs });
    buffer.set(row.evaluation_id, b);
    buffered += 1;
    if (buffered >= DELIVERY_CHUNK) await flush();
  };
  for (const fileId of [batch.output_file_id, batch.error_file_id]) {
    if (!fileId) continue;
    const began = c.now();
    const read = await c.readFile(fileId);
    figures.readMs += c.now() - began;
    if (!read.ok) return null;
    try {
      for await (const line of read.value) {
        if (line.customId !== null) await add(line.customId, line);
      }
    } catch (e) {
      log('warn', 'wave.read_failed', { coordinator: c.coordinator, fileId, error: messageOf(e) });
      await flush();
      return null;
    }
  }
  if (!(await flush())) return null;
  // Lines the batch never answered (it failed, or was cancelled before they ran): retryable failures.
  for (const row of c.store.unanswered(p.wave, p.part))
    await add(row.custom_id, {
      customId: row.custom_id,
      kind: 'error',
      attemptKind: 'network',
      retryable: true,
      error: {
        code: `batch_${batch.status}`,
        message: `provider batch ${batch.id} ended ${batch.status} without this line's result`,
      },
    });
  return (await flush()) ? figures : null;
}
