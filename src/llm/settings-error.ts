/**
 * @module
 * Why LLM settings cannot be used, as the operator's logs and the caller see it: a generic caller-facing
 * message and code, the diagnosis kept for the logs.
 */
import { redactSecrets } from '../log/redact.js';

/**
 * Why LLM settings are unusable: `missing_base_url` (LLM_BASE_URL empty), `mock_unavailable` (`mock`
 * where the in-process mock is not included, e.g. the Worker), `invalid_providers`, `invalid_prices`,
 * `invalid_settings`; or `byok_disabled` (a caller's key where ALLOW_BYOK is off). An invalid number or flag
 * is the configuration's (src/config/vars.ts `ConfigError`, `config_invalid`).
 */
export type LlmSettingsReason =
  | 'missing_base_url'
  | 'mock_unavailable'
  | 'invalid_providers'
  | 'invalid_prices'
  | 'invalid_settings'
  | 'byok_disabled';

/** The caller-facing message of every deployment configuration fault: it names no variable, value or provider. */
export const LLM_NOT_CONFIGURED_MESSAGE =
  "this deployment cannot call an LLM: its LLM settings are missing or invalid (the operator's logs say why)";

/**
 * LLM settings that cannot be used. `code` and `message` are for callers and hold no internals; `reason`
 * and `detail` are the operator's diagnosis, for logs only.
 */
export class LlmSettingsError extends Error {
  override readonly name = 'LlmSettingsError';
  /** Stable caller-facing code: `llm_not_configured` (the deployment's fault) or `byok_disabled` (the caller's). */
  readonly code: 'llm_not_configured' | 'byok_disabled';
  /** What is wrong, for the operator, with secrets removed. */
  readonly detail: string;
  constructor(
    /** Stable operator-facing reason. */
    readonly reason: LlmSettingsReason,
    detail: string,
  ) {
    super(reason === 'byok_disabled' ? detail : LLM_NOT_CONFIGURED_MESSAGE);
    this.code = reason === 'byok_disabled' ? 'byok_disabled' : 'llm_not_configured';
    this.detail = redactSecrets(detail);
  }
}
