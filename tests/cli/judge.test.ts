/**
 * The engine in plain Node: the judge CLI runs a preset in-process against the bundled mock, and a stored
 * transcript replays to the same verdict without any LLM call.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayReplies as replay } from '../../src/engine/replay.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import { runEvaluation } from '../../src/engine/runner.js';
import type { Task } from '../../src/engine/task.js';
import { createLlmWithMock } from '../../src/mock-llm/in-process.js';
import { IN_PROCESS_MOCK_URL } from '../../src/llm/settings.js';
import { REPO_ROOT } from '../../src/cli/worker-bundle.js';
import { runCliInProcess } from '../support/cli-in-process.js';

const task: Task = {
  kind: 'pairwise',
  question: 'What is a good way to learn to touch type?',
  answerA: 'Practise 15 minutes daily on a typing tutor, never looking at the keys.',
  answerB: 'Type a lot.',
};
const llm = createLlmWithMock({ providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } }, defaultModel: 'mock-judge' });

async function judged(preset: string) {
  const config = resolveMethodConfig(preset, {});
  const method = getMethod(config.method);
  const run = await runEvaluation(method, createEvaluation(method, config, task), llm);
  if (run.outcome.status !== 'succeeded') throw new Error('expected a verdict');
  return run.outcome.verdict;
}

describe('replay', () => {
  it('reproduces the verdict from the stored transcript alone', async () => {
    const verdict = await judged('chateval-faireval');
    const config = resolveMethodConfig('chateval-faireval', {});
    const method = getMethod(config.method);
    // Stored in finishing order, which need not be the order calls became ready.
    const messages = [...verdict.transcript].reverse();
    const r = replay(method, createEvaluation(method, config, task), messages);
    if (!('outcome' in r) || r.outcome.status !== 'succeeded') throw new Error('expected a replayed verdict');
    expect(r.applied).toBe(8);
    expect(r.outcome.verdict.winner).toBe(verdict.winner);
    expect(r.outcome.verdict.scores).toEqual(verdict.scores);
    expect(r.outcome.verdict.votes).toEqual(verdict.votes);
    expect(r.outcome.verdict.positionFlip).toBe(verdict.positionFlip);
  });

  it('re-aggregates under another calibration rule, and names the calls a larger config still needs', async () => {
    const verdict = await judged('chateval-faireval');
    const agree = resolveMethodConfig('chateval-faireval', { calibration: { combine: 'agree-or-tie' } });
    const method = getMethod(agree.method);
    const r = replay(method, createEvaluation(method, agree, task), verdict.transcript);
    if (!('outcome' in r) || r.outcome.status !== 'succeeded') throw new Error('expected a replayed verdict');
    expect(r.outcome.verdict.details.combine).toBe('agree-or-tie');
    expect(r.outcome.verdict.scores).toBeUndefined();

    const longer = resolveMethodConfig('chateval-faireval', { turns: 3 });
    const more = replay(method, createEvaluation(method, longer, task), verdict.transcript);
    expect('missing' in more && more.missing).toEqual(['ab/turn3/agent0', 'ba/turn3/agent0']);
  });
});

/**
 * `npm run judge …` run in this process (its own entry code, output and exit code; a real process of the
 * same CLI is tests/cli/cli-usage.test.ts's), with the bundled mock: no LLM endpoint from the environment.
 */
const judgeCli = (args: readonly string[]) =>
  runCliInProcess(join(REPO_ROOT, 'src/cli/judge.ts'), args, { LLM_BASE_URL: '', LLM_API_KEY: '' });

describe('npm run judge', () => {
  it('judges a task in-process with the bundled mock and prints the verdict', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tribunal-judge-'));
    const file = join(dir, 'task.json');
    writeFileSync(file, JSON.stringify(task));
    const r = await judgeCli(['--preset', 'more-mtbench', '--task', file]);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout) as {
      status: string;
      verdict: { method: string; winner: string; calls: number };
    };
    expect(printed.status).toBe('succeeded');
    expect(printed.verdict.method).toBe('more');
    expect(['A', 'B', 'tie']).toContain(printed.verdict.winner);
    // 3 advocates per answer, 2 aggregators, 1 judge.
    expect(printed.verdict.calls).toBe(9);
  });

  it('judges by a rubric given as a file; a rubric of the other kind is a usage error naming rubric.kind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tribunal-judge-'));
    const taskFile = join(dir, 'task.json');
    const rubricFile = join(dir, 'rubric.json');
    writeFileSync(taskFile, JSON.stringify(task));
    writeFileSync(
      rubricFile,
      JSON.stringify({ kind: 'pairwise', criteria: 'Prefer the answer a beginner can act on today.' }),
    );
    const r = await judgeCli(['--preset', 'fastchat-pair', '--task', taskFile, '--rubric', rubricFile, '--transcript']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout) as { status: string; verdict: { calls: number } };
    expect(printed.status).toBe('succeeded');
    expect(printed.verdict.calls).toBe(2);
    writeFileSync(rubricFile, JSON.stringify({ kind: 'pointwise', criteria: 'c', scale: { min: 1, max: 5 } }));
    const failed = await judgeCli(['--preset', 'fastchat-pair', '--task', taskFile, '--rubric', rubricFile]);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('rubric.kind: a pointwise rubric cannot judge a pairwise task');
  });
});
