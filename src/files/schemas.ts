/**
 * @module
 * The schemas of OpenAI's Files API as Tribunal serves it for eval data (`purpose: evals`): the upload's
 * form, a file object, a page of them, the delete answer, and the limits.
 */
import { z } from '@hono/zod-openapi';

/** Largest file accepted, bytes (20 MiB): a run's items are read from it in one piece. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Most lines a file may hold (50,000): each is one item of a run. */
export const MAX_FILE_LINES = 50_000;

/** The purposes OpenAI's SDK names; only `evals` is stored here (the others are a 400 saying so). */
export const FILE_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;

/** `POST /v1/files`: the multipart form. */
export const UploadFormSchema = z
  .object({
    file: z
      .custom<File>((v) => v instanceof File, { message: 'a file part is required (multipart/form-data)' })
      .openapi({ type: 'string', format: 'binary', description: 'The JSONL file: one JSON object per line.' }),
    purpose: z.enum(FILE_PURPOSES).openapi({ description: 'Only `evals` is accepted.' }),
  })
  .strict()
  .openapi('FileUpload');

/** A file as OpenAI's SDK reads it. */
export const FileObjectSchema = z
  .object({
    id: z.string(),
    object: z.literal('file'),
    bytes: z.number().int().nonnegative(),
    created_at: z.number().int(),
    filename: z.string(),
    purpose: z.literal('evals'),
    status: z.literal('processed'),
  })
  .openapi('FileObject');
/** A file as the API answers it. */
export type FileObject = z.infer<typeof FileObjectSchema>;

/** A page of files. */
export const FileListSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(FileObjectSchema),
    first_id: z.string().nullable(),
    last_id: z.string().nullable(),
    has_more: z.boolean(),
  })
  .openapi('FileList');

/** `GET /v1/files`: `after` (the previous page's last id), `limit` (1-10,000, default 10,000), `order`, `purpose`. */
export const FileListQuerySchema = z
  .object({
    after: z.string().max(128).optional().openapi({ description: 'The last id of the previous page.' }),
    limit: z.coerce.number().int().min(1).max(10_000).default(10_000),
    order: z.enum(['asc', 'desc']).default('desc').openapi({ description: 'By creation time; default `desc`.' }),
    purpose: z.string().max(32).optional().openapi({ description: 'Only files with this purpose.' }),
  })
  .strict();

/** `DELETE /v1/files/{file_id}`. */
export const FileDeletedSchema = z
  .object({ id: z.string(), object: z.literal('file'), deleted: z.literal(true) })
  .openapi('FileDeleted');

/** `{file_id}`. */
export const FileIdParams = z.object({
  file_id: z
    .string()
    .max(128)
    .openapi({ param: { name: 'file_id', in: 'path' }, example: 'file-7f3kq2m9x4c8b1n5' }),
});
