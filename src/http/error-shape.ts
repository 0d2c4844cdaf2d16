/**
 * @module
 * A route family whose clients expect errors in another wire format (OpenAI's SDKs, OTLP exporters) answers
 * every error in that format, whoever raised it (auth, body limits, validation, 404/405, a bug): handlers and
 * the kernel keep raising Tribunal's errors, and {@link rewriteErrors} turns each answered one into the family's
 * shape, with the same status and headers. {@link documentErrorsAs} says so in the routes' documentation.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ErrorBodySchema } from './errors.js';
import type { ErrorBody } from './errors.js';
import type { KernelEnv } from './kernel-env.js';

/** The family's answer for one Tribunal error: its body and content type, and headers to set besides. */
export interface RewrittenError {
  body: BodyInit;
  contentType: string;
  headers?: Record<string, string>;
}

/**
 * Middleware, registered before auth on the family's paths, that rewrites every Tribunal error response
 * (`{ error: { code, message, … } }`) with `rewrite`; other answers pass unchanged.
 */
export function rewriteErrors<E extends KernelEnv>(
  rewrite: (error: ErrorBody, status: number, c: Context<E>) => RewrittenError | null,
) {
  return createMiddleware<E>(async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 400 || !(res.headers.get('Content-Type') ?? '').includes('application/json')) return;
    const parsed = ErrorBodySchema.safeParse(
      await res
        .clone()
        .json()
        .catch(() => null),
    );
    if (!parsed.success) return;
    const out = rewrite(parsed.data, res.status, c);
    if (!out) return;
    const headers = new Headers(res.headers);
    headers.delete('Content-Length');
    headers.set('Content-Type', out.contentType);
    for (const [name, value] of Object.entries(out.headers ?? {})) headers.set(name, value);
    // Unset first: hono's setter would otherwise copy the old response's headers over the new ones.
    c.res = undefined;
    c.res = new Response(out.body, { status: res.status, headers });
  });
}

/** A documented response whose body is Tribunal's error (`ErrorBodySchema`). */
interface TribunalErrorDoc {
  description: string;
  content: { 'application/json': { schema: typeof ErrorBodySchema } };
}

/** A route's responses with each Tribunal error's content replaced by `C`. */
export type ErrorsDocumentedAs<R, C> = {
  [K in keyof R]: R[K] extends TribunalErrorDoc ? { description: string; content: C } : R[K];
};

/**
 * A route's documented responses (e.g. from `v1Responses`) with every Tribunal error body replaced by
 * `content`, the description (its stable codes) kept: for a family behind {@link rewriteErrors}, so the
 * document says what is answered.
 */
export function documentErrorsAs<R extends object, C>(responses: R, content: C): ErrorsDocumentedAs<R, C> {
  const out: Record<string, unknown> = {};
  for (const [status, doc] of Object.entries(responses)) {
    const schema = (doc as Partial<TribunalErrorDoc>).content?.['application/json']?.schema;
    out[status] = schema === ErrorBodySchema ? { description: (doc as TribunalErrorDoc).description, content } : doc;
  }
  return out as ErrorsDocumentedAs<R, C>;
}
