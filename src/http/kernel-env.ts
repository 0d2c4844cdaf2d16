/**
 * @module
 * The hono environment of the kernel: the Worker bindings and the variables the kernel's own middleware
 * sets. Features extend it with their own variables (who is calling: `TenantEnv`, src/tenants/auth.ts).
 */
import type { Bindings } from '../config/bindings.js';

/** Per-request values the kernel sets. */
export interface KernelVariables {
  /** Random id of this request, echoed in `X-Request-Id` and in `internal` errors. */
  requestId: string;
}

/** hono environment of the kernel: the Worker bindings and {@link KernelVariables}. */
export interface KernelEnv {
  Bindings: Bindings;
  Variables: KernelVariables;
}
