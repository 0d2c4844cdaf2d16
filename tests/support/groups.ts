/**
 * How a `vitest run` schedules its projects (`sequence.groupOrder`); `npm test` runs two, node, worker and
 * worker-shards in one and e2e niced beside it (tests/support/run-suite.ts). Vitest runs its groups one after another;
 * the projects of one group share one pool of `maxWorkers` slots, and the group's queue holds their files
 * in the order the run's sequencer gives (tests/support/sequencer.ts), each slot taking the next file when it
 * frees. A slot keeps its runner (a node fork, a workerd) while the next file is of the same project, and
 * starts another runner when it is not.
 *
 * So node and worker share one group: the first slot node frees starts the worker project's runtime while
 * the other still runs node's last files (with a group each, both slots stood idle ~12 s between them).
 *
 * In a plain `vitest run` of every project, worker-shards runs in the e2e group, its files spliced in after the group's first file and before the
 * e2e files (the sequencer): one slot starts its runtime and runs its four files while the other two run the
 * longest e2e files. At the end of the first group (its place before), both slots started a shards runtime at
 * once once the worker project's last files were taken: 14 s of the quiet suite's wall (80 s at load 19), two
 * runtime starts for four files, and the e2e group waited for them.
 */

/** The group of the node and worker projects: first. */
export const GROUP_BEFORE_E2E = 1;

/** Slots of that group: 2, one per core (every project in a group must name the same number). */
export const WORKERS_BEFORE_E2E = 2;

/** The e2e project's group: after the others. */
export const GROUP_E2E = 2;

/** Slots of the e2e group: 3 (tests/vitest.e2e.config.ts says why). */
export const WORKERS_E2E = 3;

/**
 * Whether this run has the e2e project (no `--project`, or one naming e2e), read from the command line
 * (`argv`, default this process's). worker-shards joins the e2e group only then: alone in a group of three
 * slots, its four files would start three runtimes.
 */
export function runsE2e(argv: readonly string[] = process.argv): boolean {
  const named = argv.flatMap((a, i) =>
    a === '--project' ? [argv[i + 1] ?? ''] : a.startsWith('--project=') ? [a.slice('--project='.length)] : [],
  );
  return named.length === 0 || named.includes('e2e');
}

/** worker-shards' group and slots: the e2e group's in a run with e2e, else the first group's. */
export function shardsSchedule(argv: readonly string[] = process.argv): { groupOrder: number; maxWorkers: number } {
  return runsE2e(argv)
    ? { groupOrder: GROUP_E2E, maxWorkers: WORKERS_E2E }
    : { groupOrder: GROUP_BEFORE_E2E, maxWorkers: WORKERS_BEFORE_E2E };
}
