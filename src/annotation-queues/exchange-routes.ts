/**
 * @module
 * `/v1/annotation-queues/{id}/export` and `/{id}/import`: a queue's labels out as a file (JSONL, CSV) and back
 * in. Mounted by ./routes.ts after its own routes; the file formats are ./files.ts, the work ./exchange.ts.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { invalidRequest, toIssues } from '../http/errors.js';
import {
  BAD_QUERY,
  errorResponse,
  jsonResponse,
  NoQuery,
  notFound,
  PAYLOAD_TOO_LARGE,
  v1Responses,
} from '../http/responses.js';
import type { TenantEnv } from '../tenants/auth.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { exportQueue, importLabels } from './exchange.js';
import { CSV_COLUMNS, CSV_TYPE, JSONL_TYPE, labelFileBody } from './files.js';
import { AnnotatorHeader, annotatorOf, QueueParams, TAGS } from './route-params.js';
import { ExportLineSchema, ImportRequestSchema, ImportResultSchema } from './schemas.js';

const exportRoute = createRoute({
  method: 'get',
  path: '/{id}/export',
  operationId: 'exportAnnotationQueue',
  tags: TAGS,
  summary: 'Export the labels',
  description:
    '`format=jsonl` (default): one item per line with its task, labels, status and label. `format=csv`: a header row ' +
    `(\`${CSV_COLUMNS.join(',')}\`), then one label per row; \`aspects\` is a JSON object. The CSV imports back as it is.`,
  ...scoped('read'),
  request: {
    params: QueueParams,
    query: z
      .object({
        format: z
          .enum(['jsonl', 'csv'])
          .default('jsonl')
          .openapi({ param: { description: '`jsonl` (default) or `csv`.' } }),
      })
      .strict(),
  },
  responses: v1Responses({
    200: {
      description: 'The export.',
      content: {
        [JSONL_TYPE as string]: { schema: ExportLineSchema },
        [CSV_TYPE as string]: { schema: z.string().openapi({ example: `${CSV_COLUMNS.join(',')}\r\n` }) },
      },
    },
    400: BAD_QUERY,
    404: notFound('queue'),
  }),
});

const importRoute = createRoute({
  method: 'post',
  path: '/{id}/import',
  operationId: 'importAnnotationLabels',
  tags: TAGS,
  summary: 'Import labels from a file',
  description:
    `JSONL (\`${JSONL_TYPE}\`): one \`{itemId, label, annotator?, role?, comment?}\` per line; or CSV (\`${CSV_TYPE}\`) with a header row ` +
    '(`item_id`, `annotator`, `role`, `winner`, `score`, `aspects` as JSON, `comment`; the export’s other columns are accepted and not read). ' +
    'Every label gets provenance `imported`; a line without `annotator` is the caller’s (`x-annotator`, else the key). All or nothing: ' +
    'errors name `labels.N.…`, where N counts JSONL lines, or CSV rows after the header, from 0.',
  middleware: [requireScope('evaluations:write'), labelFileBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: QueueParams,
    query: NoQuery,
    headers: AnnotatorHeader,
    body: {
      required: true,
      content: {
        [JSONL_TYPE]: {
          schema: z.string().openapi({ example: '{"itemId":"ticket-17","label":{"winner":"A"},"annotator":"ana"}\n' }),
        },
        [CSV_TYPE]: { schema: z.string().openapi({ example: 'item_id,annotator,winner\r\nticket-17,ana,A\r\n' }) },
      },
    },
  },
  responses: v1Responses({
    200: jsonResponse(ImportResultSchema, 'Imported.'),
    400: errorResponse(
      ['invalid_json', 'invalid_request'],
      'a line that is not JSON, an unknown CSV column, an unknown item or a label that does not fit the rubric (see `issues`).',
    ),
    404: notFound('queue'),
    413: PAYLOAD_TOO_LARGE,
    415: errorResponse(['unsupported_media_type'], `Content-Type is not ${JSONL_TYPE} or ${CSV_TYPE}.`),
  }),
});

/** The export and import routes, mounted under `/v1/annotation-queues` by ./routes.ts. */
export const annotationExchange = new OpenAPIHono<TenantEnv>()
  .openapi(exportRoute, async (c) => {
    const { format } = c.req.valid('query');
    const text = await exportQueue(c.env, c.var.tenant, c.req.valid('param').id, format);
    const type = format === 'csv' ? CSV_TYPE : JSONL_TYPE;
    return new Response(text, { status: 200, headers: { 'Content-Type': `${type}; charset=utf-8` } });
  })
  .openapi(importRoute, async (c) => {
    const raw: unknown = await c.req.json();
    const parsed = ImportRequestSchema.safeParse(raw);
    if (!parsed.success) throw invalidRequest(toIssues(parsed.error, undefined, 'field', raw), 'import');
    const who = annotatorOf(c, c.req.valid('header')['x-annotator']);
    return c.json(await importLabels(c.env, c.var.tenant, c.req.valid('param').id, parsed.data, who), 200);
  });
