/**
 * Comparison maths bench: CPU and wall time of the pure statistics a comparison result needs, in this Node
 * process (the same V8 as workerd; no I/O involved), so the figure is what one Worker request spends on them.
 *
 * - `comparisonStats` on a seeded 1,000-item × 3-candidate all-pairs comparison (3,000 pair verdicts, i.e.
 *   6,000 judged orders combined), Bradley–Terry and Davidson, each with 1,000 item-bootstrap resamples;
 * - `reliabilityReport` on 1,000 items × 5 repeats, and `calibrateCascade` on 1,000 items × 3 stages.
 *
 * The first run (cold: JIT and module warm-up) and the median of the next `--repeat` runs.
 *
 * ```
 * npm run bench:comparison-math -- [--items 1000] [--resamples 1000] [--repeat 5]
 * ```
 */
import { intOption, isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import { createRng } from '../src/metrics/bootstrap.js';
import { comparisonStats } from '../src/metrics/comparison.js';
import type { EscalateItem } from '../src/metrics/escalate.js';
import { calibrateCascade } from '../src/metrics/escalate.js';
import type { ReliabilityItem } from '../src/metrics/reliability.js';
import { reliabilityReport } from '../src/metrics/reliability.js';
import { simulateTournament } from '../tests/support/tournament.js';
import { ownCpuMs } from './proc-cpu.js';

const CLI = {
  usage: `usage: npm run bench:comparison-math -- [options]

CPU and wall time of a comparison's statistics (strengths, bootstrap, gate), a reliability report and a
cascade calibration, in this process.

  --items N       items of the comparison (default 1000; 3 candidates, all pairs)
  --resamples N   bootstrap resamples (default 1000)
  --repeat N      warm runs after the cold one (default 5)
  -h, --help      this text`,
  options: {
    items: { type: 'string', default: '1000' },
    resamples: { type: 'string', default: '1000' },
    repeat: { type: 'string', default: '5' },
  },
} as const satisfies CliSpec<CliOptions>;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

/** Runs `work` once cold and `repeat` times warm; prints CPU and wall ms. */
function measure(label: string, repeat: number, work: () => unknown): void {
  const runs: { cpu: number; wall: number }[] = [];
  for (let r = 0; r <= repeat; r++) {
    const cpu0 = ownCpuMs();
    const wall0 = performance.now();
    work();
    runs.push({ cpu: ownCpuMs() - cpu0, wall: performance.now() - wall0 });
  }
  const [cold, ...warm] = runs;
  console.log(
    `${label}: cold ${cold?.cpu.toFixed(0)} ms CPU (${cold?.wall.toFixed(0)} ms wall); ` +
      `warm median ${median(warm.map((x) => x.cpu)).toFixed(0)} ms CPU (${median(warm.map((x) => x.wall)).toFixed(0)} ms wall), ${repeat} runs`,
  );
}

function reliabilityItems(n: number): ReliabilityItem[] {
  const random = createRng(7);
  const pick = () => (random() < 0.45 ? 'A' : random() < 0.8 ? 'B' : 'tie');
  return Array.from({ length: n }, (_, i) => ({
    id: `q${i}`,
    human: random() < 0.5 ? 'A' : 'B',
    repeats: Array.from({ length: 5 }, () => ({ outcome: pick(), orders: { AB: pick(), BA: pick() } })),
  }));
}

function cascadeItems(n: number): EscalateItem[] {
  const random = createRng(11);
  return Array.from({ length: n }, () => ({
    human: 'A',
    stages: [0.15, 0.1, 0].map((offset) => {
      const confidence = 0.5 + random() / 2;
      return { winner: random() < confidence - offset ? 'A' : 'B', confidence };
    }),
  }));
}

function main(values: CliValues<typeof CLI.options>): number {
  const items = intOption(values.items, 'items', 1, 1_000_000) ?? 1000;
  const resamples = intOption(values.resamples, 'resamples', 1, 100_000) ?? 1000;
  const repeat = intOption(values.repeat, 'repeat', 1, 100) ?? 5;
  const t = simulateTournament({ strengths: [0.4, 0, -0.4], items, seed: 1, tieMargin: 0.2, positionBias: 0.1 });
  const gate = { candidate: 'c0', baseline: 'c1' };
  console.log(`${items} items × 3 candidates, all pairs: ${t.outcomes.length} pair verdicts, ${resamples} resamples`);
  for (const model of ['bradley-terry', 'davidson'] as const) {
    measure(`comparisonStats (${model})`, repeat, () =>
      comparisonStats(t.candidates, t.outcomes, { model, resamples, gate }),
    );
  }
  const reliability = reliabilityItems(items);
  measure(`reliabilityReport (${items} items × 5 repeats, ${resamples} resamples)`, repeat, () =>
    reliabilityReport(reliability, { resamples }),
  );
  const cascade = cascadeItems(items);
  measure(`calibrateCascade (${items} items × 3 stages)`, repeat, () => calibrateCascade(cascade));
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLI, main);
