/**
 * @module
 * `/v1/files` (upload, list, retrieve, content, delete): OpenAI's Files API for eval data, so the `openai`
 * SDK's `files.create({ purpose: 'evals' })` gives a `file_id` an eval run's `jsonl` source reads. Errors are
 * in OpenAI's shape (src/openai/errors.ts, applied in src/app.ts). Handlers stay thin; the work is in
 * ./service.ts.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '../http/errors.js';
import {
  BAD_QUERY,
  errorResponse,
  IdempotencyHeaderSchema,
  jsonResponse,
  NoQuery,
  notFound,
  v1Responses,
} from '../http/responses.js';
import { markReplayed, REPLAY_HEADERS } from '../openai/idempotency.js';
import { inOpenAiShape } from '../openai/errors.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import type { TenantEnv } from '../tenants/auth.js';
import {
  FileDeletedSchema,
  FileIdParams,
  FileListQuerySchema,
  FileListSchema,
  FileObjectSchema,
  MAX_FILE_BYTES,
  UploadFormSchema,
} from './schemas.js';
import { deleteFileView, fileText, getFileView, listFilesView, requireFile, uploadFile } from './service.js';

/** Room for the form's own parts around the file, bytes. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** Refuses a multipart upload before reading it: not multipart (415), or declared over the limit (413). */
const uploadBody = () =>
  createMiddleware<TenantEnv>(async (c, next) => {
    // The route takes no query: one with a query is refused by its validator first (before the form is read),
    // with the 400 naming the parameter that every route answers.
    if (new URL(c.req.url).search !== '') return next();
    const type = c.req.header('Content-Type') ?? '';
    if (!type.toLowerCase().startsWith('multipart/form-data')) {
      throw new ApiError(415, 'unsupported_media_type', 'send the file as multipart/form-data (fields file, purpose)');
    }
    const length = Number(c.req.header('Content-Length') ?? '0');
    if (length > MAX_FILE_BYTES + FORM_OVERHEAD_BYTES) {
      throw new ApiError(
        413,
        'payload_too_large',
        `body of ${String(length)} bytes: a file is at most ${String(MAX_FILE_BYTES)}`,
      );
    }
    await next();
  });

const upload = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createFile',
  tags: ['files'],
  summary: 'Upload a file',
  description:
    "OpenAI's `files.create` for eval data: `purpose` `evals`, a JSONL file whose lines are JSON objects (an eval run's items: " +
    '`{"item": {…}, "sample": {…}}`), at most 20 MiB and 50,000 lines. Stored per tenant until deleted.\n\n' +
    '**Retries:** send an `Idempotency-Key` (the `openai` SDK retries a POST by itself and sends none of its own): the same key with ' +
    'the same file name, purpose and content answers the file stored first (header `Idempotent-Replayed: true`); the same key with ' +
    'another upload is 409 `idempotency_conflict`, and 404 once the file it made is deleted.',
  middleware: [requireScope('evaluations:write'), uploadBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: { required: true, content: { 'multipart/form-data': { schema: UploadFormSchema } } },
  },
  responses: inOpenAiShape(
    v1Responses({
      200: {
        ...jsonResponse(FileObjectSchema, 'The stored file (also the answer to an idempotent replay).'),
        headers: REPLAY_HEADERS,
      },
      404: errorResponse(['not_found'], 'the file this `Idempotency-Key` made was deleted.'),
      409: errorResponse(['idempotency_conflict'], 'the `Idempotency-Key` was used with a different upload.'),
      400: errorResponse(
        ['invalid_request'],
        'a form field fails its schema, a purpose other than `evals`, a line that is not a JSON object, or too many lines (see `issues`).',
      ),
      413: errorResponse(['payload_too_large'], 'the file is over 20 MiB.'),
      415: errorResponse(['unsupported_media_type'], 'the body is not multipart/form-data.'),
    }),
  ),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listFiles',
  tags: ['files'],
  summary: 'List files',
  description: "The tenant's files, newest first by default; page with `after` (the previous page's `last_id`).",
  ...scoped('read'),
  request: { query: FileListQuerySchema },
  responses: inOpenAiShape(
    v1Responses({
      200: jsonResponse(FileListSchema, 'One page of files.'),
      400: errorResponse(['invalid_request'], 'a query parameter fails its schema.'),
    }),
  ),
});

const get = createRoute({
  method: 'get',
  path: '/{file_id}',
  operationId: 'getFile',
  tags: ['files'],
  summary: 'Get a file',
  description: "The file's name, size, purpose and creation time.",
  ...scoped('read'),
  request: { params: FileIdParams, query: NoQuery },
  responses: inOpenAiShape(
    v1Responses({ 200: jsonResponse(FileObjectSchema, 'The file.'), 400: BAD_QUERY, 404: notFound('file') }),
  ),
});

const content = createRoute({
  method: 'get',
  path: '/{file_id}/content',
  operationId: 'getFileContent',
  tags: ['files'],
  summary: "Get a file's content",
  description: 'The bytes as uploaded (JSONL).',
  ...scoped('read'),
  request: { params: FileIdParams, query: NoQuery },
  responses: inOpenAiShape(
    v1Responses({
      200: {
        description: 'The content.',
        content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      400: BAD_QUERY,
      404: notFound('file'),
    }),
  ),
});

const remove = createRoute({
  method: 'delete',
  path: '/{file_id}',
  operationId: 'deleteFile',
  tags: ['files'],
  summary: 'Delete a file',
  description:
    'The file is no longer found or listed, and its content is removed. Runs that read it already keep their items.',
  ...scoped('evaluations:write'),
  request: { params: FileIdParams, query: NoQuery },
  responses: inOpenAiShape(
    v1Responses({ 200: jsonResponse(FileDeletedSchema, 'Deleted.'), 400: BAD_QUERY, 404: notFound('file') }),
  ),
});

/** Routes under `/v1/files`. */
export const files = new OpenAPIHono<TenantEnv>()
  .openapi(upload, async (c) => {
    const key = c.req.valid('header')['Idempotency-Key'];
    const { file, replayed } = await uploadFile(c.env, c.var.tenant, c.req.valid('form'), key);
    markReplayed(c, replayed);
    return c.json(file, 200);
  })
  .openapi(list, async (c) => c.json(await listFilesView(c.env, c.var.tenant, c.req.valid('query')), 200))
  .openapi(get, async (c) => c.json(await getFileView(c.env, c.var.tenant, c.req.valid('param').file_id), 200))
  .openapi(content, async (c) => {
    const f = await requireFile(c.env, c.var.tenant, c.req.valid('param').file_id);
    const text = await fileText(c.env, c.var.tenant, f.id);
    if (text === null) throw new ApiError(404, 'not_found', `no file "${f.id}"`);
    return c.body(text, 200, { 'Content-Type': 'application/octet-stream' });
  })
  .openapi(remove, async (c) => c.json(await deleteFileView(c.env, c.var.tenant, c.req.valid('param').file_id), 200));
