/**
 * @module
 * Request examples of `POST /v1/chat/completions` shown in the API reference; tests check that each one
 * passes the request schema and reads as a task its preset accepts.
 */
import { PAIRWISE_TASK_EXAMPLE, POINTWISE_TASK_EXAMPLE } from '../evaluations/examples.js';
import type { ChatCompletionRequest } from './schemas.js';
import { taskToText } from './task-text.js';

/** Named examples of chat-completion bodies (OpenAPI media-type `examples`). */
export const CHAT_COMPLETION_EXAMPLES = {
  json: {
    summary: 'JSON task, ChatEval preset',
    description: 'The user message is a Task exactly as POST /v1/evaluations takes it.',
    value: {
      model: 'tribunal/chateval-faireval',
      messages: [{ role: 'user', content: JSON.stringify(PAIRWISE_TASK_EXAMPLE) }],
    },
  },
  markers: {
    summary: 'Plain text with markers, another default model',
    description: "The same task in the plain-text convention; `@gpt-4o-mini` replaces the preset's default model.",
    value: {
      model: 'tribunal/fastchat-pair@gpt-4o-mini',
      messages: [{ role: 'user', content: taskToText(PAIRWISE_TASK_EXAMPLE) }],
    },
  },
  pointwise: {
    summary: 'Pointwise, streamed',
    description:
      'A summary scored on coherence (1-5) by the DEBATE SummEval preset; the debate streams, the last chunk carries usage.',
    value: {
      model: 'tribunal/debate-summeval',
      messages: [{ role: 'user', content: taskToText(POINTWISE_TASK_EXAMPLE) }],
      stream: true,
      stream_options: { include_usage: true },
    },
  },
} satisfies Record<string, { summary: string; description: string; value: ChatCompletionRequest }>;
