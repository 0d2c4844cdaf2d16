/**
 * The run's file order (the root config's `sequence.sequencer`): vitest's own (by group, then project name,
 * then the longest file first by the last run's times), except that worker-shards' files in the e2e group
 * (tests/support/groups.ts) go in after that group's first file and before the rest:
 * `[e2e 1, shards 1, e2e 2, shards 2…4, e2e 3…]`.
 *
 * The group's pool is a queue: its three slots take `e2e 1`, `shards 1` and `e2e 2`, so one slot starts the
 * shards runtime while the other two run the longest e2e files (40-46 s quiet). That slot keeps its runtime for
 * the next shards file only if that file is next in the queue when it frees, so the other shards files wait
 * right behind `e2e 2`: a slot freed by an e2e file before the shards slot took them all would start a
 * second shards runtime (what both slots did before, at the end of the first group), which is the worst
 * this order can do. By project name they came after every e2e file: the runtime then started alone at the
 * end of the run.
 */
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';
import { GROUP_E2E } from './groups.js';

/** The project whose files join the e2e group's head. */
const SHARDS = 'worker-shards';

/** Vitest's own order (failed files first, then the longest by the last run's times), with worker-shards' files spliced in by {@link spliceShards}. */
export default class TribunalSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return spliceShards(await super.sort(files));
  }
}

/**
 * `sorted` with worker-shards' files of the e2e group moved behind that group's first file (the first of them)
 * and second file (the others); unchanged when that group has no other file, or no shards file.
 */
export function spliceShards<S extends { project: { name: string; config: { sequence: { groupOrder: number } } } }>(
  sorted: S[],
): S[] {
  const inE2eGroup = (s: S) => s.project.config.sequence.groupOrder === GROUP_E2E;
  const shards = sorted.filter((s) => inE2eGroup(s) && s.project.name === SHARDS);
  const others = sorted.filter((s) => inE2eGroup(s) && s.project.name !== SHARDS);
  if (shards.length === 0 || others.length === 0) return sorted;
  const [first, ...rest] = shards;
  const group = [...others.slice(0, 1), ...(first ? [first] : []), ...others.slice(1, 2), ...rest, ...others.slice(2)];
  const at = sorted.findIndex(inE2eGroup);
  const outside = sorted.filter((s) => !inE2eGroup(s));
  return [...outside.slice(0, at), ...group, ...outside.slice(at)];
}
