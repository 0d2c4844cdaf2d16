/**
 * How `npm test` schedules its projects (`sequence.groupOrder`). Vitest runs its groups one after another;
 * the projects of one group share one pool of `maxWorkers` slots, and the group's queue holds their files
 * by project name (node, worker, worker-shards), each slot taking the next file when it frees. A slot keeps
 * its runner (a node fork, a workerd) while the next file is of the same project, and starts another
 * runner when it is not.
 *
 * So node, worker and worker-shards share one group: the first slot node frees starts the worker project's
 * runtime while the other still runs node's last files (with a group each, both slots stood idle ~12 s
 * between them), and worker-shards starts its runtime while the worker project's last files run (in the e2e
 * group it started after the last e2e file, ~11 s alone at the end). e2e runs after them, alone.
 */

/** The group of the node, worker and worker-shards projects: first. */
export const GROUP_BEFORE_E2E = 1;

/** Slots of that group: 2, one per core (every project in a group must name the same number). */
export const WORKERS_BEFORE_E2E = 2;

/** The e2e project's group: after the others. */
export const GROUP_E2E = 2;
