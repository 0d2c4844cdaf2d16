/**
 * @module
 * The RPC of a trace's Durable Object (durable-objects/trace/), and its stub: one object per tenant and trace
 * id (`idFromName("<tenant>:<traceId>")`), so one tenant's trace id never reaches another's object.
 */
import type { AppendOutcome, SpanRow, TraceLink } from './store.js';

/** What a trace's object answers. */
export interface TraceRpc {
  /** Keeps the spans not yet kept (idempotent on span id); `storeContent` false erases their texts once judged. */
  append(
    tenant: string,
    traceId: string,
    spans: SpanRow[],
    retentionDays: number,
    storeContent?: boolean,
  ): Promise<AppendOutcome>;
  /** The trace in tree order as JSON text (a `StoredTrace`, ./store.ts: spans hold arbitrary JSON), or null. */
  read(tenant: string): Promise<string | null>;
  /** The evaluations recorded on the trace, or null when the object keeps none of `tenant`'s (or it was deleted). */
  links(tenant: string): Promise<TraceLink[] | null>;
  /** Erases the trace and leaves a tombstone (idempotent); false when the object never kept `tenant`'s trace. */
  erase(tenant: string): Promise<boolean>;
  /** Records an evaluation made of the trace (idempotent on its id), even before the trace's spans arrive. */
  link(tenant: string, traceId: string, link: TraceLink): Promise<void>;
}

/** An object that answers the trace RPC. */
export type TraceObject = TraceRpc & Rpc.DurableObjectBranded;

/** The bindings the stub needs (generic in the class, so this module imports no Durable Object). */
export interface TraceNamespaceEnv<T extends TraceObject = TraceObject> {
  TRACE: DurableObjectNamespace<T>;
}

/** The object's name for a tenant's trace. */
export function traceObjectName(tenant: string, traceId: string): string {
  return `${tenant}:${traceId}`;
}

/** The stub of a tenant's trace's object. */
export function traceStub<T extends TraceObject>(
  env: TraceNamespaceEnv<T>,
  tenant: string,
  traceId: string,
): DurableObjectStub<T> {
  return env.TRACE.get(env.TRACE.idFromName(traceObjectName(tenant, traceId)));
}
