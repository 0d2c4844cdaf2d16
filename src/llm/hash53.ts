/**
 * @module
 * A small synchronous string hash (cyrb53) for the mock's determinism and the client's in-memory keys.
 * Why not `crypto.subtle`: it is async, and a pure function runs the same in workerd, Node and browsers.
 * Not cryptographic: never use it for secrets.
 */

/**
 * 53-bit hash of a string (cyrb53), as a non-negative safe integer.
 * @param text the input; hashed by UTF-16 code units.
 * @param seed optional seed, default 0; different seeds give independent hashes.
 */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** {@link hash53} as a fixed-width 14-character hex string, for map keys and ids. */
export function hashHex(text: string, seed = 0): string {
  return hash53(text, seed).toString(16).padStart(14, '0');
}

/**
 * A deterministic number in [0, 1) from a string: the hash scaled down. Used for seeded "random"
 * decisions (fault rates, critic agreement) that must repeat exactly for the same input.
 */
export function unitFromHash(text: string, seed = 0): number {
  return hash53(text, seed) / 2 ** 53;
}
