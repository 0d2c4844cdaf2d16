/**
 * Engine bench: what one evaluation costs the Durable Object in CPU and memory, per preset.
 *
 * For each preset it runs one evaluation in-process against the bundled mock (no network), then measures
 * - the engine's own CPU per LLM call (readyCalls + applyResult, prompts built and replies parsed),
 * - the replay a woken or evicted Durable Object does: folding every stored result onto a fresh state,
 * - the size of the serialized engine state and of the stored results (what storage holds).
 *
 * ```
 * npm run bench:engine [-- --runs 20]
 * ```
 */
import { intOption, parseCliOrExit } from '../src/cli/args.js';
import type { LlmCallResult } from '../src/engine/call.js';
import { applyResult, createEvaluation, outcome, readyCalls } from '../src/engine/protocol.js';
import { getMethod, PRESETS, resolveMethodConfig } from '../src/engine/registry.js';
import type { Task } from '../src/engine/task.js';
import { createLlmWithMock } from '../src/mock-llm/in-process.js';
import { IN_PROCESS_MOCK_URL } from '../src/llm/settings.js';

const CLI = {
  usage: `usage: npm run bench:engine -- [--runs N]

What one evaluation costs the Durable Object in CPU and memory, per preset (in-process, bundled mock).

  --runs N     timed runs per preset (default 20)
  -h, --help   this text`,
  options: { runs: { type: 'string', default: '20' } },
} as const;
const values = await parseCliOrExit(CLI, (v) => intOption(v.runs, 'runs', 1));
const RUNS = Number(values.runs);

const pairwise: Task = {
  kind: 'pairwise',
  question: 'Explain why the sky is blue to a ten-year-old, in a few sentences.',
  answerA:
    'Sunlight has all colours. Air scatters blue light the most, so blue comes at us from every direction of the sky.',
  answerB: 'Because the ocean reflects onto the sky.',
};
const pointwise = (aspect: string, max: number): Task => ({
  kind: 'pointwise',
  source:
    'The council approved a cycling lane on Main Street after a two-year consultation. Works start in May and last six weeks; parking moves to side streets.',
  output: 'Main Street gets a cycling lane; six weeks of works from May, parking moves.',
  aspect: { name: aspect, scale: { min: 1, max } },
});

const llm = createLlmWithMock({ providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } }, defaultModel: 'mock-judge' });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

const rows: string[] = [];
for (const preset of PRESETS) {
  const config = resolveMethodConfig(preset.id, {});
  const method = getMethod(config.method);
  const task =
    preset.taskKind === 'pairwise'
      ? pairwise
      : preset.id.includes('topical-chat')
        ? pointwise('naturalness', 3)
        : pointwise('coherence', 5);
  // One real run to record the results a Durable Object would store.
  let state = createEvaluation(method, config, task);
  const stored: LlmCallResult[] = [];
  let engineMs = 0;
  while (!outcome(method, state)) {
    const t0 = performance.now();
    const ready = readyCalls(method, state);
    engineMs += performance.now() - t0;
    const results = await Promise.all(ready.map((r) => llm(r)));
    for (const r of results) {
      stored.push(r);
      const t1 = performance.now();
      state = applyResult(method, state, r);
      engineMs += performance.now() - t1;
    }
  }
  // Replay as after an eviction: the fold of stored results onto a fresh state.
  const replays: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    let s = createEvaluation(method, config, task);
    for (const r of stored) s = applyResult(method, s, r);
    outcome(method, s);
    replays.push(performance.now() - t0);
  }
  const stateKb = new TextEncoder().encode(JSON.stringify(state)).length / 1024;
  const resultsKb = new TextEncoder().encode(stored.map((r) => JSON.stringify(r)).join('')).length / 1024;
  rows.push(
    `| ${preset.id} | ${stored.length} | ${(engineMs / stored.length).toFixed(2)} | ${median(replays).toFixed(2)} | ${stateKb.toFixed(1)} | ${resultsKb.toFixed(1)} |`,
  );
}
console.log(
  [
    `Engine cost per preset (in-process mock, Node ${process.version}; replay median of ${RUNS})`,
    '',
    '| preset | LLM calls | engine CPU per call (ms) | replay after eviction (ms) | engine state (KiB) | stored results (KiB) |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'),
);
