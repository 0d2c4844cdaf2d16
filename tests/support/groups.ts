/**
 * How a `vitest run` schedules its projects (`sequence.groupOrder`); `npm test` runs two, node and worker in one
 * and e2e niced beside it (tests/support/run-suite.ts). Vitest runs its groups one after another; the projects
 * of one group share one pool of `maxWorkers` slots, and the group's queue holds their files in vitest's order
 * (by project name, then the longest file first by the last run's times), each slot taking the next file when it
 * frees. A slot keeps its runner (a node fork, a workerd) while the next file is of the same project, and
 * starts another runner when it is not.
 *
 * So node and worker share one group: the first slot node frees starts the worker project's runtime while
 * the other still runs node's last files (with a group each, both slots stood idle ~12 s between them).
 *
 * The files that run with the D1 shards on (tests/worker-shards/) are the worker project's, in its two runtimes
 * (tests/worker/d1-shards-override.ts): a project of their own started two more runtimes (one per slot) for four
 * files, 9-10 s of setup each at the end of the first group in a quiet run.
 */

/** The group of the node and worker projects: first. */
export const GROUP_BEFORE_E2E = 1;

/** Slots of that group: 2, one per core (every project in a group must name the same number). */
export const WORKERS_BEFORE_E2E = 2;

/** The e2e project's group: after the others. */
export const GROUP_E2E = 2;

/** Slots of the e2e group: 3 (tests/vitest.e2e.config.ts says why). */
export const WORKERS_E2E = 3;
