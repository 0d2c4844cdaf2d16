/**
 * Few-shot alignment's pieces: corrections chosen (most confident mistakes first), the criteria's example form,
 * and the mock's verbosity bias (`verbose`) that such examples correct, through the in-process mock.
 */
import { describe, expect, it } from 'vitest';
import type { JudgedLabel } from '../../src/align/few-shot.js';
import { chooseCorrections, fewShotCriteria } from '../../src/align/few-shot.js';
import { fewShotCorrects, shownAnswers } from '../../src/mock-llm/judge-mode.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import { runEvaluation } from '../../src/engine/runner.js';
import { createLlmWithMock } from '../../src/mock-llm/in-process.js';
import { IN_PROCESS_MOCK_URL } from '../../src/llm/settings.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { qualityTag } from '../../src/mock-llm/judge-mode.js';

const label = (human: 'A' | 'B', judge: 'A' | 'B' | null, confidence: number, tag = ''): JudgedLabel => ({
  question: `Q${tag}`,
  answerA: 'A long padded answer that is wrong.',
  answerB: 'Short right.',
  human,
  judge,
  confidence,
});

describe('few-shot alignment', () => {
  it('takes the judge’s most confident mistakes, at most k', () => {
    const chosen = chooseCorrections(
      [label('B', 'A', 0.4, '1'), label('B', 'B', 1, '2'), label('B', 'A', 0.9, '3'), label('B', null, 0, '4')],
      4,
    );
    expect(chosen.map((c) => c.question)).toEqual(['Q3', 'Q1']);
    expect(chooseCorrections([label('B', 'A', 1), label('B', 'A', 1)], 1)).toHaveLength(1);
  });

  it('writes the examples after the criteria, one line per field, in the form the mock reads', () => {
    const text = fewShotCriteria('Judge correctness.', [label('B', 'A', 1)]);
    expect(text.startsWith('Judge correctness.\n\n')).toBe(true);
    expect(text).toContain('Answer A: A long padded answer that is wrong.\nAnswer B: Short right.\nHuman verdict: B');
    expect(fewShotCorrects(text)).toBe(true);
    expect(fewShotCorrects(fewShotCriteria('x', [{ ...label('A', 'B', 1) }]))).toBe(false);
    expect(fewShotCriteria('Same.', [])).toBe('Same.');
  });

  it('the mock’s verbosity bias picks the longer answer, and few-shot corrections mostly undo it', async () => {
    const llm = createLlmWithMock({
      providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } },
      defaultModel: 'mock-judge',
    });
    const config = resolveMethodConfig('fastchat-pair', {
      calibration: { enabled: false },
      defaults: { model: mockModel({ seed: 'few-shot-test', verbose: 1 }) },
    });
    const method = getMethod(config.method);
    const task = (i: number) => ({
      kind: 'pairwise' as const,
      question: `(${i}) 2 + 2?`,
      answerA: `Let me think about it at length, step by step, carefully. It is 5. ${qualityTag(0)}`,
      answerB: `4. ${qualityTag(1)}`,
    });
    const winners = async (criteria: string) =>
      Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const { outcome } = await runEvaluation(
            method,
            createEvaluation(method, config, task(i), { kind: 'pairwise', criteria }),
            llm,
          );
          return outcome.status === 'succeeded' ? outcome.verdict.winner : undefined;
        }),
      );
    const base = await winners('Correctness only.');
    expect(base.every((w) => w === 'A')).toBe(true);
    const aligned = await winners(fewShotCriteria('Correctness only.', [label('B', 'A', 1)]));
    // verbose=1 becomes 1/4: most verdicts follow the quality tags again.
    expect(aligned.filter((w) => w === 'B').length).toBeGreaterThan(10);
    expect(shownAnswers("[The Start of Assistant A's Answer]\nx\n[The End of Assistant A's Answer]")).toBeUndefined();
  });
});
