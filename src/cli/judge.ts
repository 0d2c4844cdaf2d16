/**
 * @module
 * The engine from the command line, in plain Node, no Worker involved:
 *
 * - judge one task in-process: `npm run judge -- --preset chateval-faireval --task task.json
 *   [--config overrides.json | --config '{"turns": 3}'] [--rubric rubric.json] [--base-url https://api.openai.com/v1]
 *   [--model gpt-4o-mini]`
 *   (settings as a deployment reads them: `LLM_API_KEY`, `LLM_PROVIDERS`, …; without a base URL the bundled mock answers, offline);
 * - replay a stored debate: `npm run judge -- --preset … --task task.json --replay transcript.json`
 *   feeds the messages of `GET /v1/evaluations/:id/transcript` back into the engine and prints the verdict
 *   again without any LLM call — e.g. to re-aggregate under another `calibration.combine`. When the config
 *   asks for calls the transcript does not hold, it lists them instead.
 *
 * Prints the verdict as JSON (without the transcript unless `--transcript`).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { AnyMethod } from '../engine/method.js';
import type { EngineState, Outcome } from '../engine/state.js';
import { createEvaluation } from '../engine/protocol.js';
import { EngineInputError } from '../engine/errors.js';
import { replayReplies } from '../engine/replay.js';
import { budgetAdmission, budgetOf, loadCallMeter } from '../budgets/call-check.js';
import { formatIssues, getMethod, PRESETS, resolveMethodConfig } from '../engine/registry.js';
import { runEvaluation } from '../engine/runner.js';
import { TaskSchema } from '../engine/task.js';
import { createLlmWithMock } from '../mock-llm/in-process.js';
import { settingsFromEnv, supportsNOf } from '../llm/settings.js';
import type { CliOptions, CliSpec, CliValues } from './args.js';
import { isMain, jsonObjectOption, runCli, UsageError } from './args.js';

/** The part of a stored transcript replay needs: each reply's call id, model and text, in order. */
const ReplaySchema = z.object({
  messages: z.array(z.object({ callId: z.string(), model: z.string(), content: z.string() })),
});

function readJson(path: string, option: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--${option}: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UsageError(`--${option}: ${path} is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** Command line of `npm run judge`. */
export const JUDGE_CLI = {
  usage: `usage: npm run judge -- (--preset P | --config C) --task T.json [options]

Judges one task in-process (plain Node, no Worker), or replays a stored transcript without LLM calls.

  --preset P          preset id (npm start, then GET /v1/methods lists them)
  --config C          config overrides: inline JSON, @file.json or a path to a JSON file
  --task T.json       the task (pairwise or pointwise), as POST /v1/evaluations takes it
  --rubric R.json     a rubric's content to judge by (kind, criteria, scale, aspects, evaluationSteps)
  --replay R.json     replay GET /v1/evaluations/:id/transcript instead of calling an LLM
  --base-url URL      OpenAI-compatible endpoint (default LLM_BASE_URL, else the bundled mock)
  --model M           default model (default LLM_MODEL, mock-judge with the mock)
  --transcript        print the transcript with the verdict
  -h, --help          this text

Exit codes: 0 verdict, 1 the evaluation failed or an error, 2 a usage error.`,
  options: {
    preset: { type: 'string' },
    config: { type: 'string' },
    task: { type: 'string' },
    rubric: { type: 'string' },
    replay: { type: 'string' },
    'base-url': { type: 'string' },
    model: { type: 'string' },
    transcript: { type: 'boolean', default: false },
  },
} as const satisfies CliSpec<CliOptions>;

async function main(values: CliValues<typeof JUDGE_CLI.options>): Promise<number> {
  if (!values.task) throw new UsageError('--task is required');
  if (!values.preset && !values.config) throw new UsageError('give --preset or --config (or both)');
  const task = TaskSchema.safeParse(readJson(values.task, 'task'));
  if (!task.success) throw new UsageError(`--task: ${formatIssues(task.error)}`);
  const overrides = jsonObjectOption(values.config, 'config');
  let config: EngineState['config'];
  let method: AnyMethod;
  let state: EngineState;
  try {
    config = resolveMethodConfig(values.preset, overrides);
    method = getMethod(config.method);
    state = createEvaluation(method, config, task.data, values.rubric ? readJson(values.rubric, 'rubric') : undefined);
  } catch (e) {
    // A preset, config or task the engine cannot run is the user's mistake: say which, exit 2.
    if (!(e instanceof EngineInputError)) throw e;
    const list = e.code === 'unknown_preset' ? ` (presets: ${PRESETS.map((p) => p.id).join(', ')})` : '';
    throw new UsageError(`${e.message.replace(/; see GET \/v1\/methods for the list$/, '')}${list}`);
  }

  let done: Outcome;
  if (values.replay) {
    const stored = ReplaySchema.safeParse(readJson(values.replay, 'replay'));
    if (!stored.success) throw new UsageError(`--replay: ${formatIssues(stored.error)}`);
    const r = replayReplies(method, state, stored.data.messages);
    if ('missing' in r) {
      console.error(`the transcript does not hold every call this config needs; next calls: ${r.missing.join(', ')}`);
      return 1;
    }
    done = r.outcome;
  } else {
    // The deployment's own settings reader, so LLM_PROVIDERS, timeouts, attempts and prices apply here too.
    const baseUrl = values['base-url'] || process.env.LLM_BASE_URL || 'mock';
    const model = values.model || process.env.LLM_MODEL || (baseUrl === 'mock' ? 'mock-judge' : undefined);
    const settings = settingsFromEnv(
      { ...process.env, LLM_BASE_URL: baseUrl, ...(model ? { LLM_MODEL: model } : {}) },
      { inProcessMock: true },
    );
    const llm = createLlmWithMock(settings);
    // A `budget` in --config is checked before every call, as the service does.
    const budget = budgetOf(config) ? { admit: budgetAdmission(await loadCallMeter(settings)) } : {};
    done = (
      await runEvaluation(method, state, llm, {
        onCall: (r) => process.stderr.write(`→ ${r.id} (${r.label}, ${r.stage})\n`),
        supportsN: supportsNOf(settings),
        ...budget,
      })
    ).outcome;
  }
  if (done.status === 'succeeded' && !values.transcript) {
    const { transcript: _omitted, ...verdict } = done.verdict;
    console.log(JSON.stringify({ status: done.status, verdict }, null, 2));
  } else {
    console.log(JSON.stringify(done, null, 2));
  }
  return done.status === 'failed' ? 1 : 0;
}

if (isMain(import.meta.url)) await runCli(JUDGE_CLI, main);
