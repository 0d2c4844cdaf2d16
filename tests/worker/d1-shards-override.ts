/**
 * @module
 * `D1_SHARDS` for one test file of the worker project. The project's runtimes run with `D1_SHARDS` 0 (DB holds
 * everything, so a suite reads a tenant's rows at `env.DB`); a file that runs the whole pipeline with the shards
 * on (tests/worker-shards/, through its `useD1Shards`) sets an override here for its duration. The Worker entry
 * (./test-entry.ts) hands every fetch, queue batch, cron and Durable Object it constructs {@link withD1Override}
 * of workerd's bindings, and the helpers that call the app directly spread {@link d1Override}, so the API, the
 * queue consumers and the objects all read the same count. A runtime runs its files one after another
 * (tests/vitest.worker.config.ts: isolation off), so the override is the running file's alone.
 *
 * No vitest import: the Worker entry loads this module too.
 */

/** Where the override lives: one per isolate (runtime), whichever copy of this module reads it. */
const KEY = Symbol.for('tribunal.test.d1ShardsOverride');

type WithOverride = typeof globalThis & { [KEY]?: string };

/** Sets (a count such as `'4'`) or clears (`undefined`) this runtime's `D1_SHARDS` override. */
export function setD1Override(count: string | undefined): void {
  (globalThis as WithOverride)[KEY] = count;
}

/** `{ D1_SHARDS }` while a file overrides it, else `{}`: spread after workerd's bindings. */
export function d1Override(): { D1_SHARDS?: string } {
  const count = (globalThis as WithOverride)[KEY];
  return count === undefined ? {} : { D1_SHARDS: count };
}

/** One derived object per bindings object and count: the app caches its parse of the bindings per object. */
const derived = new WeakMap<object, Map<string, object>>();

/**
 * `env` itself when no override is set, else a copy with the override's `D1_SHARDS` (the same copy each time
 * for the same `env` and count, so configOf's and the D1 layout's per-object caches hold).
 */
export function withD1Override<E extends object>(env: E): E {
  const count = d1Override().D1_SHARDS;
  if (count === undefined) return env;
  let byCount = derived.get(env);
  if (!byCount) {
    byCount = new Map();
    derived.set(env, byCount);
  }
  let copy = byCount.get(count);
  if (!copy) {
    copy = { ...env, D1_SHARDS: count };
    byCount.set(count, copy);
  }
  return copy as E;
}
