/**
 * @module
 * Resolved method configs stored once, by hash (migrations/0020_thin_evaluation_rows.sql): the config (about
 * 2 KB for a debate preset, 6 KB for one with long prompts) was repeated on every `evaluations` row. A new row
 * keeps only its config's hash in `config_hash` (an empty inline `config`), and `method_configs` holds each
 * config once: a batch's items, and every request with the same judge, share one row. A batch budget's grant to
 * an item is the item's own `budget` column, laid over the config's `budget` where the config is read
 * ({@link configSql}). Rows written before keep their config inline (`config_hash` NULL) and read as before.
 */
import { canonicalJson } from '../http/request-hash.js';
import { sha256HexSync } from '../webhooks/sha256.js';

/**
 * Hex characters of a config's key (32: the first 128 bits of the sha-256 of its canonical JSON). Every row
 * carries it, so it is kept short; 128 bits leave no practical chance of two configs sharing one.
 */
export const CONFIG_HASH_CHARS = 32;

/** Hashes of configs seen lately, by their JSON: a batch's items, and a burst of one judge, hash once. */
const recent = new Map<string, string>();
/** How many config hashes {@link configHashOf} remembers (64). */
const RECENT_MAX = 64;
/** Hashes of frozen configs, by the object. */
const byObject = new WeakMap<object, string>();

/** JSON texts of frozen configs, by the object. */
const jsonByObject = new WeakMap<object, string>();

/** `config` when it is a frozen object (src/engine/registry.ts hands out one deep-frozen object per judge), else null. */
function frozenOf(config: unknown): object | null {
  return typeof config === 'object' && config !== null && Object.isFrozen(config) ? config : null;
}

/**
 * The JSON text of `config`. A frozen one is written once, by identity: every request of a burst of one judge
 * stores it and hands it to its object, and it is up to 6 KB.
 */
export function configJsonOf(config: unknown): string {
  const frozen = frozenOf(config);
  const known = frozen && jsonByObject.get(frozen);
  if (known) return known;
  const json = JSON.stringify(config);
  if (frozen) jsonByObject.set(frozen, json);
  return json;
}

/** The key of `config` in `method_configs`: {@link CONFIG_HASH_CHARS} hex characters of its canonical JSON's sha-256. */
export function configHashOf(config: unknown): string {
  // A frozen config is hashed once, by identity.
  const frozen = frozenOf(config);
  const known = frozen && byObject.get(frozen);
  if (known) return known;
  const json = configJsonOf(config);
  let hash = recent.get(json);
  if (hash === undefined) {
    hash = sha256HexSync(canonicalJson(config)).slice(0, CONFIG_HASH_CHARS);
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(json, hash);
  }
  if (frozen) byObject.set(frozen, hash);
  return hash;
}

/**
 * The statements storing each distinct config of `configs` once (a config already stored writes nothing).
 * Run them in the same `batch()` as, and before, the rows that name them.
 * @param now epoch ms, the `created_at` of a config stored now.
 */
export function storeConfigStatements(db: D1Database, configs: readonly unknown[], now: number): D1PreparedStatement[] {
  const byHash = new Map<string, unknown>();
  for (const c of configs) byHash.set(configHashOf(c), c);
  return [...byHash].map(([hash, config]) =>
    db
      .prepare('INSERT INTO method_configs (hash, config, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
      .bind(hash, configJsonOf(config), now),
  );
}

/**
 * SQL giving the config JSON an evaluation runs with, for the `evaluations` row aliased `alias`: its config by
 * hash (or its inline one, for a row written before), with its batch budget grant (`budget`) as `$.budget`.
 */
export function configSql(alias: string): string {
  const base = `COALESCE((SELECT mc.config FROM method_configs mc WHERE mc.hash = ${alias}.config_hash), ${alias}.config)`;
  return `CASE WHEN ${alias}.budget IS NULL THEN ${base} ELSE json_set(${base}, '$.budget', json(${alias}.budget)) END`;
}
