/**
 * @module
 * Synchronous SHA-256 of a UTF-8 string, as lower-case hex. Why not `crypto.subtle`: event ids are computed
 * while building the statements of an ending's D1 transaction, which is synchronous (src/ending-plan.ts).
 * workerd's `node:crypto` (the `nodejs_compat` flag) hashes in native code: the JS implementation this replaced
 * was ~6% of the Worker isolate's CPU per verdict (`npm run bench:peers`' split, `bench:profile`). Not for
 * secrets or MACs: those use `crypto.subtle` (./signature.ts).
 */
import { createHash } from 'node:crypto';

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text` (64 characters). */
export function sha256HexSync(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
