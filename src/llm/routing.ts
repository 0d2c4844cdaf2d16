/**
 * @module
 * Provider routing for the client (./client.ts): where one call goes and how its attempts are shaped, decided
 * once per call from the settings, the request and what this client has learned about each provider and model
 * (a rejected `json_schema`, an answer that the model offers no flex tier; both remembered for the life of the
 * client, one isolate).
 */
import type { LlmCallRequest } from '../engine/call.js';
import { FLEX_UNSUPPORTED } from './flex.js';
import { responsesUrl } from './responses.js';
import type { LlmSettings, ProviderSettings } from './settings.js';
import { IN_PROCESS_MOCK_URL } from './settings.js';
import { LlmSettingsError } from './settings-error.js';
import type { JsonSchemaResponseFormat } from './structured.js';
import { responseFormatFor } from './structured.js';
import type { FlexFallback } from './tiers.js';
import type { WireTarget } from './wire.js';
import { wireTarget } from './wire.js';

/** Placeholder base URL under which the in-process mock is served (`.invalid`: never resolved by DNS). */
export const IN_PROCESS_BASE = 'http://in-process.mock.invalid/v1';

/** The fetches a client may be given: its own (default the global one) and the in-process mock's (default none). */
export interface TransportDeps {
  fetch?: typeof fetch;
  inProcessMock?: typeof fetch;
}

/**
 * How requests to provider `p` travel, for every client of a provider (chat completions, the Batch API,
 * embeddings): the fetch (the in-process mock's for {@link IN_PROCESS_MOCK_URL}, else `deps.fetch`, else the
 * global one) and the base URL they go to ({@link IN_PROCESS_BASE} for the mock, else the provider's).
 */
export function transportOf(
  p: Pick<ProviderSettings, 'baseUrl'>,
  deps: TransportDeps,
): { fetch: typeof fetch; base: string } {
  const inProcess = p.baseUrl === IN_PROCESS_MOCK_URL;
  // Called unbound: workerd's fetch refuses a `this` other than the global scope.
  const fetchImpl = (inProcess ? deps.inProcessMock : deps.fetch) ?? ((input, init) => fetch(input, init));
  return { fetch: fetchImpl, base: inProcess ? IN_PROCESS_BASE : p.baseUrl };
}

/** Where a call goes and how its first attempt is shaped (the client may change `tier` and `format` later). */
export interface Route {
  providerId: string;
  /** The model sent: the request's, else the settings' default. */
  model: string;
  /** The chat-completions target (URL and headers). */
  target: WireTarget;
  /** The provider's Responses API URL. */
  responsesUrl: string;
  /** The fetch the provider's requests go through (the in-process mock's for its placeholder). */
  fetch: typeof fetch;
  /** Whether the call goes to the Responses API (asked for, and spoken by the provider: not Azure). */
  responses: boolean;
  /** OpenAI's `n`, only when 2 or more at a provider that honours it (never on the Responses API). */
  n?: number;
  /** `prompt_cache_key`, only where the provider accepts it. */
  promptCacheKey?: string;
  /** The structured-output format of a `json` parser where the provider and model take it; absent: text. */
  format?: JsonSchemaResponseFormat;
  /** The first attempt's tier. */
  tier: 'standard' | 'flex';
}

/** A call refused before any request: its error code, message (not yet redacted) and tier. */
export interface Refusal {
  refused: { code: string; message: string; tier: 'standard' | 'flex' };
}

/** What {@link createRouter} gives the client: each call's route, and what its attempts teach. */
export interface Router {
  /** The call's route, or why it goes nowhere. */
  route(
    request: LlmCallRequest,
    options: { tier?: 'standard' | 'flex'; flexFallback?: FlexFallback; promptCacheKey?: string },
  ): Route | Refusal;
  /** The route's provider and model refused `json_schema`: later calls to them go straight to text. */
  noJsonSchema(route: Route): void;
  /** The route's model offers no flex tier: later flex calls to it go straight to the fallback. */
  noFlex(route: Route): void;
}

/**
 * The router of a client over `settings`.
 * @param deps the client's fetch (default the global one) and in-process mock (default none)
 * @throws LlmSettingsError `mock_unavailable` when a provider uses {@link IN_PROCESS_MOCK_URL} and
 *   `deps.inProcessMock` is not given.
 */
export function createRouter(settings: LlmSettings, deps: TransportDeps): Router {
  for (const [id, p] of Object.entries(settings.providers)) {
    if (p.baseUrl === IN_PROCESS_MOCK_URL && !deps.inProcessMock) {
      throw new LlmSettingsError(
        'mock_unavailable',
        `provider "${id}" uses the in-process mock, which this build does not include: use createLlmWithMock (Node) or a mock server`,
      );
    }
  }
  const targets = new Map<string, WireTarget>();
  /** `provider\u0000model` pairs that rejected json_schema: later calls go straight to text. */
  const noJsonSchema = new Set<string>();
  /** `provider\u0000model` pairs that answered that they offer no flex tier. */
  const noFlex = new Set<string>();
  const keyOf = (providerId: string, model: string) => `${providerId}\u0000${model}`;

  function targetFor(providerId: string, p: ProviderSettings): Pick<Route, 'target' | 'responsesUrl' | 'fetch'> {
    const { fetch: fetchImpl, base } = transportOf(p, deps);
    const cached = targets.get(providerId);
    const target = cached ?? wireTarget(p, base);
    if (!cached) targets.set(providerId, target);
    return { target, responsesUrl: responsesUrl(base), fetch: fetchImpl };
  }

  return {
    route(request, options) {
      const providerId = request.provider ?? settings.defaultProvider;
      const provider = settings.providers[providerId];
      const refuse = (code: string, message: string, tier: 'standard' | 'flex'): Refusal => ({
        refused: { code, message, tier },
      });
      // Names no other provider: the deployment's provider table is not the caller's business.
      if (!provider) return refuse('bad_request', `unknown provider "${providerId}"`, 'standard');
      const model = request.model ?? settings.defaultModel;
      const modelKey = keyOf(providerId, model);
      const parser = request.parser;
      const format =
        parser.type === 'json' && provider.supportsJsonSchema && !noJsonSchema.has(modelKey)
          ? responseFormatFor(parser)
          : undefined;
      let tier: 'standard' | 'flex' = 'standard';
      if (options.tier === 'flex') {
        if (!provider.supportsFlex)
          return refuse('tier_unsupported', `provider "${providerId}" does not offer the flex tier`, 'flex');
        if (!noFlex.has(modelKey)) tier = 'flex';
        else if ((options.flexFallback ?? 'standard') === 'wait')
          return refuse(FLEX_UNSUPPORTED, `model "${model}" at provider "${providerId}" offers no flex tier`, 'flex');
      }
      // The Responses API where the call asks for it and the provider speaks it (not Azure's deployment URLs).
      const responses =
        request.api === 'responses' && provider.supportsResponses && provider.azureApiVersion === undefined;
      // `n` only where the provider is declared to honour it; elsewhere one choice comes back and the protocol
      // core asks for the missing samples as separate calls.
      const n = request.n !== undefined && request.n > 1 && provider.supportsN && !responses ? request.n : undefined;
      const promptCacheKey = provider.supportsPromptCacheKey ? options.promptCacheKey : undefined;
      return {
        providerId,
        model,
        ...targetFor(providerId, provider),
        responses,
        ...(n !== undefined ? { n } : {}),
        ...(promptCacheKey !== undefined ? { promptCacheKey } : {}),
        ...(format ? { format } : {}),
        tier,
      };
    },
    noJsonSchema(route) {
      noJsonSchema.add(keyOf(route.providerId, route.model));
    },
    noFlex(route) {
      noFlex.add(keyOf(route.providerId, route.model));
    },
  };
}
