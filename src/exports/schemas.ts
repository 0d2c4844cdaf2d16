/**
 * @module
 * The export settings' zod schemas (`GET` / `PUT /v1/exports`): the tenant's OTLP export as written, and as read
 * back (header names only: their values are secrets), with what its last delivery attempts came to. Times are ISO
 * 8601 UTC.
 */
import { z } from '@hono/zod-openapi';
import { WebhookUrlSchema } from '../webhooks/schemas.js';

/** Most headers an export sends (16). */
export const MAX_EXPORT_HEADERS = 16;

/** Longest header value, characters (4,096). */
export const MAX_HEADER_VALUE_CHARS = 4096;

/** Headers the export sets itself, which a tenant's `headers` may not name (compared in lower case). */
export const RESERVED_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'host',
  'user-agent',
] as const;

/** The wire encodings OTLP/HTTP defines, by their `OTEL_EXPORTER_OTLP_PROTOCOL` names. */
export const OtlpProtocolSchema = z.enum(['http/protobuf', 'http/json']).meta({
  id: 'OtlpProtocol',
  description:
    '`http/protobuf` (the default, `application/x-protobuf`) or `http/json` (`application/json`, OTLP/JSON).',
});
/** An OTLP/HTTP encoding. */
export type OtlpProtocol = z.infer<typeof OtlpProtocolSchema>;

/** A header name: an HTTP token, 1-64 characters. */
const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, { error: 'must be an HTTP header name' });

/** A header value: 1-4,096 characters, without CR, LF or NUL. */
const HeaderValue = z
  .string()
  .min(1)
  .max(MAX_HEADER_VALUE_CHARS)
  .regex(/^[^\r\n\0]*$/, { error: 'must not contain CR, LF or NUL' });

/** The `otlp` part of `PUT /v1/exports`. */
export const OtlpExportRequestSchema = z
  .object({
    endpoint: WebhookUrlSchema.describe(
      "The collector's base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT`: records go to `<endpoint>/v1/logs` (a URL already ending in `/v1/logs` is used as it is). " +
        "Checked by the webhooks' URL guard: `https` to a public host (plain `http` to loopback only where the deployment sets `WEBHOOK_ALLOW_LOOPBACK=true`).",
    ),
    headers: z
      .record(HeaderName, HeaderValue)
      .superRefine((h, ctx) => {
        const names = Object.keys(h);
        if (names.length > MAX_EXPORT_HEADERS)
          ctx.addIssue({ code: 'custom', message: `at most ${MAX_EXPORT_HEADERS} headers` });
        const seen = new Set<string>();
        for (const name of names) {
          const lower = name.toLowerCase();
          if ((RESERVED_HEADERS as readonly string[]).includes(lower))
            ctx.addIssue({ code: 'custom', path: [name], message: 'is set by the export itself' });
          else if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: [name], message: 'is named twice' });
          seen.add(lower);
        }
      })
      .optional()
      .describe(
        `Headers sent with every request (at most ${MAX_EXPORT_HEADERS}), e.g. the collector's API key: secrets, stored and never shown back (reads list the names).`,
      ),
    protocol: OtlpProtocolSchema.optional(),
  })
  .strict()
  .meta({ id: 'OtlpExportRequest' });
/** The `otlp` part of `PUT /v1/exports`. */
export type OtlpExportRequest = z.infer<typeof OtlpExportRequestSchema>;

/** Body of `PUT /v1/exports`. */
export const ExportsRequestSchema = z
  .object({
    otlp: z
      .union([OtlpExportRequestSchema, z.null()])
      .describe('The OTLP export, replacing the one set before (send the headers again); null removes it.'),
  })
  .strict()
  .meta({ id: 'ExportsRequest' });
/** Body of `PUT /v1/exports`. */
export type ExportsRequest = z.infer<typeof ExportsRequestSchema>;

/** The tenant's OTLP export as read back. */
export const OtlpExportSchema = z
  .object({
    endpoint: z.string().describe('The base URL as stored.'),
    logsUrl: z.string().describe('Where records are POSTed: `<endpoint>/v1/logs`.'),
    protocol: OtlpProtocolSchema,
    headers: z.array(z.string()).describe('The names of the headers sent; their values are never shown.'),
    delivery: z
      .object({
        lastAttemptAt: z.string().nullable(),
        lastSuccessAt: z.string().nullable(),
        lastStatusCode: z.number().int().nullable().describe("The last attempt's answer; null: none came."),
        lastError: z
          .object({ at: z.string(), message: z.string() })
          .strict()
          .nullable()
          .describe('The last failed attempt (its HTTP status, a timeout or a network error), or null.'),
      })
      .strict()
      .describe("What the export's delivery attempts came to (each attempt writes it)."),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'OtlpExport' });
/** The tenant's OTLP export as read back. */
export type OtlpExport = z.infer<typeof OtlpExportSchema>;

/** Answer of `GET` and `PUT /v1/exports`. */
export const ExportsSchema = z
  .object({ otlp: z.union([OtlpExportSchema, z.null()]).describe('The OTLP export, or null when none is set.') })
  .strict()
  .meta({ id: 'Exports' });
/** Answer of `GET` and `PUT /v1/exports`. */
export type Exports = z.infer<typeof ExportsSchema>;
