/**
 * @module
 * The `custom_id` of a batch line: a deterministic name for (evaluation id, call id) within 64 characters
 * of `[A-Za-z0-9_-]`, the alphabet and length every Batch API takes (Anthropic's rule is the strictest:
 * OpenAI takes any string). Results are matched by it, never by line order.
 *
 * Layout: `<evaluation>_<call>_<hash>`, where the first two parts are the ids with every other character
 * turned into `-` and cut to 16 characters (for a person reading a provider's console) and `<hash>` is 28 hex
 * digits (two independent 53-bit hashes, ~106 bits) of the exact pair. So the id is unique for distinct pairs
 * in practice (two pairs collide with probability ~2^-106), whatever the ids contain.
 *
 * The mapping is one way: the caller keeps the inverse (a persisted map from `custom_id` to the pair,
 * written before the file is uploaded), and {@link CustomIdIndex} refuses a collision instead of trusting
 * the hash.
 */
import { hashHex } from './hash53.js';

/** Longest `custom_id`, characters. */
export const CUSTOM_ID_MAX_LENGTH = 64;
/** What a `custom_id` matches. */
export const CUSTOM_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Characters of each readable part. */
const PART = 16;

function readable(id: string): string {
  return id.replace(/[^A-Za-z0-9-]/g, '-').slice(0, PART) || '-';
}

/** The `custom_id` of a call of an evaluation (module notes). Pure. */
export function customIdFor(evaluationId: string, callId: string): string {
  // Lengths go first so no two pairs hash the same input ("a\0b\0c" could split two ways).
  const pair = `${evaluationId.length}:${evaluationId}\u0000${callId.length}:${callId}`;
  return `${readable(evaluationId)}_${readable(callId)}_${hashHex(pair, 1)}${hashHex(pair, 2)}`;
}

/** One call named by a `custom_id`. */
export interface CallRef {
  evaluationId: string;
  callId: string;
}

/** Thrown when two distinct calls would share a `custom_id` in one index (not expected to ever happen). */
export class CustomIdCollisionError extends Error {
  override readonly name = 'CustomIdCollisionError';
}

/**
 * The inverse of {@link customIdFor} for a set of calls (one batch file, one wave): `custom_id` → call.
 * Plain data via {@link CustomIdIndex.entries}, so a caller can persist it and rebuild it with
 * {@link CustomIdIndex.from}.
 */
export class CustomIdIndex {
  private readonly byId = new Map<string, CallRef>();

  /** An index of `entries` as {@link CustomIdIndex.entries} gave them. */
  static from(entries: Iterable<readonly [string, CallRef]>): CustomIdIndex {
    const index = new CustomIdIndex();
    for (const [id, ref] of entries) index.put(id, ref);
    return index;
  }

  private put(id: string, ref: CallRef): void {
    const had = this.byId.get(id);
    if (had && (had.evaluationId !== ref.evaluationId || had.callId !== ref.callId))
      throw new CustomIdCollisionError(
        `custom_id ${id} names both ${had.evaluationId}/${had.callId} and ${ref.evaluationId}/${ref.callId}`,
      );
    this.byId.set(id, ref);
  }

  /**
   * The `custom_id` of a call, recorded in the index (adding the same call twice is a no-op).
   * @throws CustomIdCollisionError when another call already has that id
   */
  add(evaluationId: string, callId: string): string {
    const id = customIdFor(evaluationId, callId);
    this.put(id, { evaluationId, callId });
    return id;
  }

  /** The call of a `custom_id`, or undefined for one this index never gave out. */
  get(customId: string): CallRef | undefined {
    return this.byId.get(customId);
  }

  /** How many calls the index holds. */
  get size(): number {
    return this.byId.size;
  }

  /** Every (custom_id, call) pair, to persist. */
  entries(): [string, CallRef][] {
    return [...this.byId].map(([id, ref]) => [id, { ...ref }]);
  }
}
