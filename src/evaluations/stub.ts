/**
 * @module
 * Reaching an evaluation's Durable Object: the stub by evaluation id, and {@link forwardEvents} for the
 * API's `GET /v1/evaluations/:id/events` route. Typed by the RPC contract (./rpc.ts), not by the class,
 * so nothing here imports the Durable Object.
 */
import type { EvaluationRpc } from './rpc.js';
import { EVALUATION_ID_HEADER } from './rpc.js';

/** An object that answers the evaluation RPC: `EvaluationDO` in production, a test subclass in tests. */
export type EvaluationObject = EvaluationRpc & Rpc.DurableObjectBranded;

/**
 * The bindings these helpers need. Generic in the class, so callers keep their binding's own stub type
 * (`Env.EVALUATION` names `EvaluationDO`) without this module importing it.
 */
export interface EvaluationNamespaceEnv<T extends EvaluationObject = EvaluationObject> {
  EVALUATION: DurableObjectNamespace<T>;
}

/** The stub of the Durable Object that runs evaluation `id` (`idFromName(id)`: one object per evaluation). */
export function evaluationStub<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  id: string,
): DurableObjectStub<T> {
  return env.EVALUATION.get(env.EVALUATION.idFromName(id));
}

/**
 * Hands a live-events request to the evaluation's Durable Object and returns its response unchanged:
 * SSE (`text/event-stream`) by default, a WebSocket (101) when the request carries `Upgrade: websocket`.
 * Both replay everything so far, then stream live events and end after the terminal `status` event.
 * The caller checks that the evaluation exists and belongs to the tenant first.
 * @example
 * app.get('/v1/evaluations/:id/events', (c) => forwardEvents(c.env, c.req.param('id'), c.req.raw));
 */
export function forwardEvents<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  id: string,
  request: Request,
): Promise<Response> {
  const forwarded = new Request(request);
  forwarded.headers.set(EVALUATION_ID_HEADER, id);
  return evaluationStub(env, id).fetch(forwarded);
}
