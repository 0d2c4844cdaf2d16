/**
 * The one part of `node:crypto` the Worker uses (workerd implements it under `nodejs_compat`), declared here:
 * the Worker's program is meant to see workerd's globals only, and Node's types reach it only by accident (through
 * undici-types), so this does not lean on them.
 */
declare module 'node:crypto' {
  /** A running hash: feed it text, then read its digest. */
  interface Hash {
    update(data: string, encoding: 'utf8'): Hash;
    digest(encoding: 'hex'): string;
  }
  /** A hash of algorithm `algorithm` (here always `'sha256'`). */
  export function createHash(algorithm: 'sha256'): Hash;
}
