/**
 * Prompt-cache prefix share per preset: how much of an evaluation's prompt tokens repeat a prefix of an
 * earlier call of the same evaluation (same model), which is what a provider's prompt cache can reuse.
 *
 * Engine-level and in-process: each preset runs wave by wave (the calls a stored result makes ready, as
 * the Durable Object launches them) against the bundled deterministic mock. Tokens are the mock's token
 * stream (`promptTokenStream`: per-message overhead + the approximate tokenizer, the count the mock
 * bills). For each call, the prefix it shares with any call of an EARLIER wave counts (calls of the same
 * wave run at once, so none can warm the cache for another). Two figures:
 * - **shared prefix**: the longest common token prefix, any length;
 * - **cacheable (OpenAI rule)**: the part of it the mock's OpenAI-like cache would report as
 *   `cached_tokens`: prompts of ≥ 1,024 tokens, prefixes in 128-token steps (src/mock-llm/prompt-cache.ts).
 *
 * ```
 * npm run bench:prefix
 * ```
 */
import { isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec } from '../src/cli/args.js';
import type { LlmCallRequest } from '../src/engine/call.js';
import { applyResult, createEvaluation, outcome, readyCalls } from '../src/engine/protocol.js';
import { getMethod, PRESETS, resolveMethodConfig } from '../src/engine/registry.js';
import type { Task } from '../src/engine/task.js';
import { createLlmWithMock } from '../src/mock-llm/in-process.js';
import { CACHE_MIN_TOKENS, CACHE_STEP_TOKENS, promptTokenStream } from '../src/mock-llm/prompt-cache.js';
import { IN_PROCESS_MOCK_URL } from '../src/llm/settings.js';

const CLI = {
  usage: `usage: npm run bench:prefix -- [--long]

Share of each preset's prompt tokens that repeat a prefix of an earlier call of the same evaluation.

  --long       MT-Bench-sized answers and sources (each text ~20× longer), so prompts pass the
               1,024-token minimum of provider caches
  -h, --help   this text`,
  options: { long: { type: 'boolean', default: false } },
} as const satisfies CliSpec<CliOptions>;

/** The debate methods (multi-agent protocols); the other presets are single judges or ensembles. */
const DEBATE_METHODS = new Set(['chateval', 'more', 'samre', 'debate']);

/** `text` made `times` times longer (numbered repeats, so the tokens differ). */
const longer = (text: string, times: number) => Array.from({ length: times }, (_, i) => `(${i + 1}) ${text}`).join(' ');

function tasks(times: number): { pairwise: Task; pointwise: (aspect: string, max: number) => Task } {
  return {
    pairwise: {
      kind: 'pairwise',
      question: 'Explain why the sky is blue to a ten-year-old, in a few sentences.',
      answerA: longer(
        'Sunlight has all colours. Air scatters blue light the most, so blue comes at us from every direction of the sky.',
        times,
      ),
      answerB: longer('Because the ocean reflects onto the sky.', times),
    },
    pointwise: (aspect, max) => ({
      kind: 'pointwise',
      source: longer(
        'The council approved a cycling lane on Main Street after a two-year consultation. Works start in May and last six weeks; parking moves to side streets.',
        times,
      ),
      output: longer('Main Street gets a cycling lane; six weeks of works from May, parking moves.', times),
      aspect: { name: aspect, scale: { min: 1, max } },
    }),
  };
}

/** Length of the common prefix of two token streams. */
function commonPrefix(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Prefix figures of one evaluation. */
export interface PrefixShare {
  preset: string;
  method: string;
  calls: number;
  waves: number;
  promptTokens: number;
  /** Tokens of each call's longest common prefix with a call of an earlier wave (same model). */
  sharedTokens: number;
  /** What an OpenAI-like cache would report as cached (≥ 1,024-token prompts, 128-token steps). */
  cacheableTokens: number;
}

/** Runs `presetId` wave by wave against the in-process mock and measures its prefix share. */
export async function prefixShare(presetId: string, times = 1): Promise<PrefixShare> {
  const { pairwise, pointwise } = tasks(times);
  const preset = PRESETS.find((p) => p.id === presetId);
  if (!preset) throw new Error(`unknown preset ${presetId}`);
  const llm = createLlmWithMock({
    providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } },
    defaultModel: 'mock-judge',
  });
  const config = resolveMethodConfig(preset.id, {});
  const method = getMethod(config.method);
  const task =
    preset.taskKind === 'pairwise'
      ? pairwise
      : preset.id.includes('topical-chat')
        ? pointwise('naturalness', 3)
        : pointwise('coherence', 5);
  let state = createEvaluation(method, config, task);
  const earlier: { model: string; tokens: string[] }[] = [];
  const out: PrefixShare = {
    preset: preset.id,
    method: config.method,
    calls: 0,
    waves: 0,
    promptTokens: 0,
    sharedTokens: 0,
    cacheableTokens: 0,
  };
  while (!outcome(method, state)) {
    const wave: LlmCallRequest[] = readyCalls(method, state);
    if (wave.length === 0) break;
    out.waves += 1;
    const streams = wave.map((r) => ({ model: r.model ?? 'default', tokens: promptTokenStream(r.messages) }));
    for (const s of streams) {
      out.calls += 1;
      out.promptTokens += s.tokens.length;
      const shared = earlier
        .filter((e) => e.model === s.model)
        .reduce((best, e) => Math.max(best, commonPrefix(e.tokens, s.tokens)), 0);
      out.sharedTokens += shared;
      // The mock's cache rule (prompt-cache.ts): prompts of ≥ 1,024 tokens, prefixes in 128-token steps.
      if (s.tokens.length >= CACHE_MIN_TOKENS && shared >= CACHE_MIN_TOKENS)
        out.cacheableTokens += Math.floor(shared / CACHE_STEP_TOKENS) * CACHE_STEP_TOKENS;
    }
    // Only after the wave: its calls run at once, so none warms the cache for another.
    earlier.push(...streams);
    const results = await Promise.all(wave.map((r) => llm(r)));
    for (const r of results) state = applyResult(method, state, r);
  }
  return out;
}

const pct = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`);

async function main(values: { long: boolean | undefined }): Promise<number> {
  const rows: PrefixShare[] = [];
  for (const p of PRESETS) rows.push(await prefixShare(p.id, values.long ? 20 : 1));
  rows.sort((a, b) => Number(DEBATE_METHODS.has(b.method)) - Number(DEBATE_METHODS.has(a.method)));
  console.log(
    [
      `Prompt tokens that repeat a prefix of an earlier wave's call of the same evaluation (same model), in-process deterministic mock, one evaluation per preset, ${values.long ? 'long texts (each ~20× the short task)' : 'short texts (bench/engine.ts tasks)'}`,
      '',
      '| preset | method | debate? | calls | waves | prompt tokens | shared prefix | cacheable (OpenAI rule: ≥ 1,024 tokens, 128-token steps) |',
      '|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.preset} | ${r.method} | ${DEBATE_METHODS.has(r.method) ? 'yes' : 'no'} | ${r.calls} | ${r.waves} | ${r.promptTokens} | ${pct(r.sharedTokens, r.promptTokens)} | ${pct(r.cacheableTokens, r.promptTokens)} |`,
      ),
    ].join('\n'),
  );
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLI, main);
