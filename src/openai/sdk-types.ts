/**
 * @module
 * The judge-as-a-model answers held to the `openai` package's own types, at compile time only (`import
 * type`: nothing reaches the Worker bundle). Each alias below fails to type-check when our shape drifts
 * from the SDK's: a completion, a chunk, a model, the model list, an error body, and the request
 * parameters the SDK sends (every one of which our request schema must name, accepting or refusing it).
 */
import type { APIError } from 'openai';
import type {
  ChatCompletion as SdkChatCompletion,
  ChatCompletionChunk as SdkChatCompletionChunk,
  ChatCompletionCreateParams,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { Model as SdkModel } from 'openai/resources/models';
import type { ChatCompletionChunk } from './chunks.js';
import type { ChatCompletion, ChatCompletionRequest, ChatUsage, OpenAIErrorBody } from './schemas.js';
import type { ModelListSchema, ModelSchema, REFUSED_PARAMETERS } from './schemas.js';
import type { z } from 'zod';

/** `Actual`, when it is assignable to `Expected`; a compile error otherwise. */
export type Conforms<Actual extends Expected, Expected> = Actual;

/** Our completion is one the SDK reads. */
export type CompletionConforms = Conforms<ChatCompletion, SdkChatCompletion>;
/** Our chunks (role, content, the final one with `finish_reason`, the usage one) are ones the SDK reads. */
export type ChunkConforms = Conforms<Omit<ChatCompletionChunk, 'tribunal'>, SdkChatCompletionChunk>;
/** Our usage block is the SDK's. */
export type UsageConforms = Conforms<ChatUsage, CompletionUsage>;
/** `GET /v1/models/{model}` and each item of `GET /v1/models`. */
export type ModelConforms = Conforms<z.infer<typeof ModelSchema>, SdkModel>;
/** `GET /v1/models`: a list page of models. */
export type ModelListConforms = Conforms<z.infer<typeof ModelListSchema>, { object: 'list'; data: SdkModel[] }>;
/** Our error body carries what the SDK's `APIError` reads from `error`. */
export type ErrorConforms = Conforms<
  OpenAIErrorBody['error'],
  { message: string; type: string; code: string | null | undefined; param: string | null | undefined }
>;

/** A request parameter of the SDK that our schema neither accepts nor refuses by name (should be none). */
type UnhandledParameter = Exclude<
  keyof ChatCompletionCreateParams,
  keyof ChatCompletionRequest | keyof typeof REFUSED_PARAMETERS
>;
/** Every SDK request parameter is accepted or refused by name; a new SDK parameter is a compile error here. */
export type ParametersHandled = Conforms<UnhandledParameter, never>;
/** The SDK's error class, named so a reader finds where `ErrorConforms` comes from. */
export type SdkApiError = APIError;
