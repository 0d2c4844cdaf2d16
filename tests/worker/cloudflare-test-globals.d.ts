// Globals that `@cloudflare/vitest-pool-workers/types` (cloudflare:test) refers to but that our
// generated runtime types (worker-configuration.d.ts, `wrangler types`) no longer declare: workerd only
// emits them with the experimental `service_binding_extra_handlers` flag (Fetcher#queue()), so
// `getQueueResult()`'s result and `createMessageBatch()`'s messages were unresolved types.
// Shapes follow @cloudflare/workers-types and the pool's runtime (dist/worker/lib/cloudflare/test-internal.mjs).

interface QueueRetryBatch {
  retry: boolean;
  delaySeconds?: number;
}

interface QueueRetryMessage {
  msgId: string;
  delaySeconds?: number;
}

interface FetcherQueueResult {
  outcome: string;
  ackAll: boolean;
  retryBatch: QueueRetryBatch;
  explicitAcks: string[];
  retryMessages: QueueRetryMessage[];
}

// workers-types says `timestamp: Date`; createMessageBatch() also accepts epoch milliseconds.
type ServiceBindingQueueMessage<Body = unknown> = {
  id: string;
  timestamp: Date | number;
  attempts: number;
} & ({ body: Body } | { serializedBody: ArrayBuffer | ArrayBufferView });

// A file's text through Vite's `?raw` import (the README in tests/worker/rubrics-readme.test.ts).
declare module '*?raw' {
  const text: string;
  export default text;
}
