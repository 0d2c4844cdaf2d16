/**
 * What a spread tenant sets up once and its work reads in every shard (docs/scale.md "A tenant over several
 * shards"): its OTLP export is copied into every shard of its spread with its settings (src/exports/copies.ts),
 * each shard's delivery figures kept and merged by `GET /v1/exports`, and removed from all of them.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { shardBindingNames } from '../../src/config/d1-buckets.js';
import { drainAlarms } from '../worker/helpers.js';
import { as, keyed, tenantWithKey } from '../worker/tenants-helpers.js';
import { sinkUrl } from '../worker/webhooks-helpers.js';

afterEach(drainAlarms);

const SHARDS = 4;
const named = env as unknown as Record<string, D1Database>;
const shards = shardBindingNames(SHARDS).map((n) => named[n]) as D1Database[];

/** The tenant's `otlp_exports` row in each shard (null where there is none). */
function exportRows(tenant: string): Promise<({ endpoint: string; last_attempt_at: number | null } | null)[]> {
  return Promise.all(
    shards.map((db) =>
      db
        .prepare('SELECT endpoint, last_attempt_at FROM otlp_exports WHERE tenant = ?')
        .bind(tenant)
        .first<{ endpoint: string; last_attempt_at: number | null }>(),
    ),
  );
}

async function putExports(key: string, otlp: unknown): Promise<void> {
  const r = await keyed('/v1/exports', as(key, { method: 'PUT', body: { otlp } }));
  expect(r.status, await r.clone().text()).toBe(200);
}

describe("a spread tenant's copies", () => {
  it('the OTLP export is in every shard of the spread, its figures merged, its removal everywhere', async () => {
    const t = await tenantWithKey({ spread: 4 });
    await putExports(t.key, { endpoint: sinkUrl(`otlp-${t.tenant}`), headers: { authorization: 'Bearer x' } });
    const rows = await exportRows(t.tenant);
    expect(rows.map((r) => r?.endpoint)).toEqual(Array(SHARDS).fill(sinkUrl(`otlp-${t.tenant}`)));

    // A delivery in a shard other than home records its attempt there; the API shows it.
    const at = Date.now();
    await Promise.all(
      shards.map((db) =>
        db
          .prepare(
            'UPDATE otlp_exports SET last_attempt_at = ?, last_status_code = 200, last_success_at = ? WHERE tenant = ? AND last_attempt_at IS NULL',
          )
          .bind(at, at, t.tenant)
          .run(),
      ),
    );
    const read = await (
      await keyed('/v1/exports', as(t.key))
    ).json<{ otlp: { delivery: { lastSuccessAt: string } } }>();
    expect(read.otlp.delivery.lastSuccessAt).toBe(new Date(at).toISOString());

    // New settings reach every copy and start their figures again; a removal removes every copy.
    await putExports(t.key, { endpoint: sinkUrl(`otlp2-${t.tenant}`) });
    expect(await exportRows(t.tenant)).toEqual(
      Array(SHARDS).fill({ endpoint: sinkUrl(`otlp2-${t.tenant}`), last_attempt_at: null }),
    );
    await putExports(t.key, null);
    expect(await exportRows(t.tenant)).toEqual(Array(SHARDS).fill(null));
  });
});
