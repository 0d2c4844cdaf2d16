/**
 * @module
 * Synchronous SHA-256 (FIPS 180-4) of a UTF-8 string, as lower-case hex. Why not `crypto.subtle`: event
 * ids are computed while building the statements of an ending's D1 transaction, which is synchronous
 * (src/ending-plan.ts), and the Worker's types carry no `node:crypto`. Not for secrets or MACs: those use
 * `crypto.subtle` (./signature.ts).
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** Reused per call (the Worker's JS is single-threaded): the message schedule. */
const W = new Int32Array(64);
const encoder = new TextEncoder();

/**
 * Lower-case hex SHA-256 of the UTF-8 bytes of `text`. Written for V8: 32-bit integer locals, no array
 * destructuring or per-round allocations (the straightforward form cost ~1 ms of the Worker's CPU per
 * verdict in a profile, `npm run bench:profile`).
 */
export function sha256HexSync(text: string): string {
  const bytes = encoder.encode(text);
  const n = bytes.length;
  // Padding: 0x80, zeros, then the bit length as a 64-bit big-endian integer; total a multiple of 64.
  const end = Math.ceil((n + 9) / 64) * 64;
  const m = new Uint8Array(end);
  m.set(bytes);
  m[n] = 0x80;
  const bits = n * 8;
  const high = Math.floor(bits / 2 ** 32);
  for (let i = 0; i < 4; i++) {
    m[end - 8 + i] = high >>> (24 - 8 * i);
    m[end - 4 + i] = bits >>> (24 - 8 * i);
  }
  let h0 = 0x6a09e667 | 0;
  let h1 = 0xbb67ae85 | 0;
  let h2 = 0x3c6ef372 | 0;
  let h3 = 0xa54ff53a | 0;
  let h4 = 0x510e527f | 0;
  let h5 = 0x9b05688c | 0;
  let h6 = 0x1f83d9ab | 0;
  let h7 = 0x5be0cd19 | 0;
  const w = W;
  for (let off = 0; off < end; off += 64) {
    for (let i = 0; i < 16; i++) {
      const p = off + i * 4;
      w[i] = ((m[p] ?? 0) << 24) | ((m[p + 1] ?? 0) << 16) | ((m[p + 2] ?? 0) << 8) | (m[p + 3] ?? 0);
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15] ?? 0;
      const y = w[i - 2] ?? 0;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = ((w[i - 16] ?? 0) + s0 + (w[i - 7] ?? 0) + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + (K[i] ?? 0) + (w[i] ?? 0)) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  return hex8(h0) + hex8(h1) + hex8(h2) + hex8(h3) + hex8(h4) + hex8(h5) + hex8(h6) + hex8(h7);
}

function hex8(x: number): string {
  return (x >>> 0).toString(16).padStart(8, '0');
}
