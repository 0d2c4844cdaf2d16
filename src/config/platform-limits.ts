/**
 * @module
 * Platform limits the drivers respect, in one place for the Durable Object and the benches that compute
 * lower bounds from them. Platform-free (no Cloudflare import).
 */

/**
 * LLM calls one Durable Object invocation runs at once at most (6): Workers allow 6 open outgoing
 * connections per invocation, and further fetches wait for one to close. A wave of more ready calls (G-Eval's
 * 20 samples sent separately) takes ceil(width / 6) rounds.
 */
export const MAX_PARALLEL_CALLS = 6;
