/**
 * @module
 * The tenant's OTLP export in every shard of its spread (docs/scale.md "A tenant over several shards"): an
 * evaluation's ending in any shard adds the export as a recipient when that shard holds an `otlp_exports` row
 * (./delivery.ts), and its delivery reads the row there. So the row is copied from the home shard into the
 * other shards of the spread when it is written (./service.ts), and when the spread is raised or a copy is owed
 * (src/admin/spread-copies.ts). The delivery figures (`last_*`) are each shard's own: a copy keeps them while the
 * settings are unchanged, and `GET /v1/exports` merges them.
 */
import type { Bindings } from '../config/bindings.js';
import type { CopiedTable } from '../spread-copies/copies.js';
import { copyFromHome } from '../spread-copies/copies.js';

/** The copied `otlp_exports` row: the settings copied, the delivery figures each shard's own. */
export const OTLP_EXPORTS: CopiedTable = {
  table: 'otlp_exports',
  key: 'tenant',
  columns: ['tenant', 'endpoint', 'protocol', 'headers', 'created_at', 'updated_at'],
  local: ['last_attempt_at', 'last_success_at', 'last_error', 'last_error_at', 'last_status_code'],
};

/** Copies the home shard's OTLP export of `tenant` (if any) into the other shards of its spread. */
export function copyOtlpExport(env: Bindings, tenant: string): Promise<void> {
  return copyFromHome(env, tenant, [{ t: OTLP_EXPORTS, where: 'tenant = ?' }]);
}
