/**
 * Kinds of work in a Linux `perf record -g` of workerd, shared by `bench:perf` (single-call verdicts) and
 * `bench:debates` (debates in flight): each sample is filed by what its stack holds (SQLite's parts first,
 * then the kind of its leaf-most frame), so the shares move less with the machine's load than CPU figures do.
 */
import { execFileSync } from 'node:child_process';

/** perf's sampling rate, Hz (999: about one sample per ms of CPU). */
export const PERF_HZ = 999;

/** Kinds of work told by any frame of a sample's stack, first match wins (SQLite's parts before the rest). */
const BY_STACK: readonly (readonly [string, RegExp])[] = [
  ['making an object (actor)', /Worker::Actor::Actor|ActorContainer::start\b|newActor/],
  ['SQLite: opening, closing files', /sqlite3_open|openDatabase|unixOpen|sqlite3Close|unixClose/],
  ['SQLite: preparing statements', /sqlite3Prepare|sqlite3LockAndPrepare/],
  ['SQLite: commits', /vdbeCommit|sqlite3PagerCommit|sqlite3WalFrames|pagerWalFrames|sqlite3PagerSync|unixSync/],
  ['SQLite: running statements', /sqlite3_step|sqlite3VdbeExec/],
  ['SQLite: other', /sqlite/],
  [
    "V8's collector and background threads",
    /Scavenger|MarkCompact|Heap::CollectGarbage|GarbageCollect|JobTaskWrapper|WorkerThreadsTaskRunner|ConcurrentMarking|start_thread/,
  ],
  ['JSON', /JsonStringifier|JsonParser/],
];

/** Kinds of work told by a sample's leaf-most frame that is not an allocator's or a memory copy's. */
const BY_LEAF: readonly (readonly [string, RegExp])[] = [
  ['JS (every isolate)', /Builtins_|\[unknown\]|v8::/],
  ["workerd's API bindings", /workerd::/],
  ['HTTP, Cap’n Proto, KJ promises', /Http|capnp::|kj::/],
  ['kernel', /.*/],
];

/** The kind of work of one sample of `perf script` (its frames' symbols, leaf first). */
export function kindOf(frames: readonly string[]): string {
  const stack = frames.join('\n');
  for (const [kind, re] of BY_STACK) if (re.test(stack)) return kind;
  for (const frame of frames) {
    if (/tcmalloc|malloc|free|memmove|memset|memcpy/.test(frame)) continue;
    for (const [kind, re] of BY_LEAF) if (re.test(frame)) return kind;
  }
  return 'kernel';
}

/** Samples by kind of work in perf's data file `file`, and their total. */
export function perfKinds(file: string): { counts: Map<string, number>; total: number } {
  const script = execFileSync('perf', ['script', '--input', file, '-F', 'ip,sym'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const counts = new Map<string, number>();
  let total = 0;
  for (const sample of script.split('\n\n')) {
    const frames = sample
      .split('\n')
      .map((l) => l.trim().replace(/^[0-9a-f]+ /, ''))
      .filter((l) => l.length > 0);
    if (frames.length === 0) continue;
    total += 1;
    const kind = kindOf(frames);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return { counts, total };
}

/** The markdown table of {@link perfKinds}: each kind's share and ms per `unit` over `units` of them. */
export function perfTable(
  kinds: { counts: Map<string, number>; total: number },
  units: number,
  unit: string,
): string[] {
  const msPerSample = 1000 / PERF_HZ;
  return [
    `| kind of work | share | ms / ${unit} |`,
    '|---|---|---|',
    ...[...kinds.counts]
      .sort((a, b) => b[1] - a[1])
      .map(
        ([k, n]) => `| ${k} | ${((100 * n) / kinds.total).toFixed(1)}% | ${((n * msPerSample) / units).toFixed(2)} |`,
      ),
  ];
}
