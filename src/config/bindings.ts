/**
 * @module
 * The Worker's bindings: `Env` is generated from wrangler.toml by `npm run cf-typegen`
 * (worker-configuration.d.ts, never edited by hand); secrets are not in wrangler.toml, so they are
 * declared here.
 */

/** Bindings plus the secrets a deployment may set (`wrangler secret put`, or `.dev.vars` locally). */
export interface Bindings extends Env {
  /**
   * Key for the default LLM provider (`LLM_BASE_URL`). The Worker has no mock of its own: `npm start` and the
   * tests point `LLM_BASE_URL` at the mock server when no key is set; an endpoint needing no key (Ollama) leaves it unset.
   */
  LLM_API_KEY?: string;
  /**
   * Comma-separated sha-256 hex digests of accepted API bearer tokens (the older auth mode, still
   * accepted; tenant = the digest's first 12 hex characters). Unset with `ADMIN_TOKEN` unset = no auth (local dev).
   */
  API_KEYS?: string;
  /**
   * The operator's token for the admin API (`/v1/admin`). Set, it turns managed keys on: every other `/v1`
   * route then needs a `trb_…` key (or an `API_KEYS` token). Unset with `API_KEYS` unset = no auth (local dev).
   */
  ADMIN_TOKEN?: string;
  /** Further provider keys named by LLM_PROVIDERS entries (`apiKeySecret`). */
  [secret: `${string}_API_KEY`]: string | undefined;
}
