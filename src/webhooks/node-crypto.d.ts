/**
 * The one part of `node:crypto` the Worker uses (workerd implements it under `nodejs_compat`): the Worker's
 * types are workerd's globals only, without Node's, so the module is declared here.
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
