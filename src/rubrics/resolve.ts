/**
 * @module
 * The `rubric` field of a judging request resolved to the content the engine judges by, and what the
 * evaluation records of it: `rb_…` (the latest version), `rb_…@3`, `rb_…#prod` (the version the tag points at
 * now) or an inline rubric (hashed, stored by hash for the evaluation, never as a version). Every feature that
 * judges (evaluations, batches, meta-evaluations, triggers, the OpenAI-compatible endpoint, estimates,
 * comparisons) resolves through {@link resolveRubricRef}, so a reference means the same everywhere.
 */
import type { Bindings } from '../config/bindings.js';
import type { RubricContent } from '../engine/rubric.js';
import { rubricHash } from '../engine/rubric.js';
import { ApiError } from '../http/errors.js';
import { didYouMean } from '../engine/suggest.js';
import type { VersionRecord } from './rows.js';
import type { RubricRecord } from './rubric-rows.js';
import { getVersion } from './rows.js';
import { getRubric } from './rubric-rows.js';
import { taggedVersion, tagsOf } from './tag-rows.js';
import type { RubricFieldValue } from './schemas.js';
import { contentOf, RUBRIC_REF } from './schemas.js';
import { tenantDb } from '../config/d1-shards.js';

/** What an evaluation records of its rubric: the content's hash, and the stored rubric's id and version. */
export interface RubricStamp {
  /** The rubric (`rb_…`); absent for an inline rubric. */
  id?: string;
  /** The version; absent for an inline rubric. */
  version?: number;
  /** sha-256 hex of the canonical content (src/engine/rubric.ts `rubricHash`). */
  hash: string;
}

/** A resolved `rubric` field. */
export interface ResolvedRubric {
  /** The content to judge by (the version's as created; auto-CoT steps are added by the caller when wanted). */
  content: RubricContent;
  /** What the evaluation records. */
  record: RubricStamp;
  /** The stored rubric and version; absent for an inline rubric. */
  stored?: { rubric: RubricRecord; version: VersionRecord };
}

/**
 * Resolves a request's `rubric` (already schema-checked) for `tenant`.
 * @param field where it stands in the request, for messages (default `rubric`).
 * @throws ApiError 404 `not_found` naming the field for an unknown rubric, version or tag (another tenant's
 *   rubric is unknown); 409 `rubric_archived` for an archived rubric named without its version.
 */
export async function resolveRubricRef(
  env: Bindings,
  tenant: string,
  ref: RubricFieldValue,
  field = 'rubric',
): Promise<ResolvedRubric> {
  if (typeof ref !== 'string') {
    const content = contentOf(ref);
    return { content, record: { hash: await rubricHash(content) } };
  }
  const m = RUBRIC_REF.exec(ref);
  const id = m?.[1];
  if (!m || id === undefined)
    throw new ApiError(400, 'invalid_request', `${field}: "${ref}" is not a rubric reference (rb_…, rb_…@n, rb_…#tag)`);
  const [, , at, tag] = m;
  const rubric = await getRubric(tenantDb(env, tenant), tenant, id);
  if (!rubric) throw new ApiError(404, 'not_found', `${field}: no rubric "${id}"`);
  const tagged = tag === undefined ? null : await taggedVersion(tenantDb(env, tenant), id, tag);
  if (rubric.archivedAt !== null && at === undefined) {
    // The version the reference meant: the one its tag points at, else the latest.
    const meant = tagged
      ? `${id}@${tagged.version}, the version tag "${tagged.tag}" points at`
      : `${id}@${rubric.latestVersion}`;
    throw new ApiError(
      409,
      'rubric_archived',
      `${field}: rubric "${id}" is archived; name a version (${meant}) to judge by it`,
    );
  }
  let number = rubric.latestVersion;
  if (at !== undefined) number = Number(at);
  if (tag !== undefined) {
    if (!tagged) {
      const tags = ((await tagsOf(tenantDb(env, tenant), [id])).get(id) ?? []).map((t) => t.tag);
      throw new ApiError(404, 'not_found', `${field}: rubric "${id}" has no tag "${tag}"${didYouMean(tag, tags)}`);
    }
    number = tagged.version;
  }
  const version = await getVersion(tenantDb(env, tenant), tenant, id, number);
  if (!version) throw new ApiError(404, 'not_found', `${field}: rubric "${id}" has no version ${number}`);
  return {
    content: version.content,
    record: { id, version: version.version, hash: version.hash },
    stored: { rubric, version },
  };
}
