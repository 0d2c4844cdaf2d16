/**
 * The eval graders' pure parts in Node: templates rendered as OpenAI renders them, string checks, the text
 * similarity metrics against values worked out by hand from their definitions, `calculate_output`'s
 * restricted evaluator, and the grader checks' 400s naming the field.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.js';
import { evaluateExpression, ExpressionError } from '../../src/evals/expression.js';
import { checkGraders } from '../../src/evals/grader-check.js';
import type { Grader } from '../../src/evals/grader-schemas.js';
import { grade, labelOf } from '../../src/evals/graders.js';
import { bleu, cosineOf, gleu, meteor, similarity } from '../../src/evals/similarity.js';
import { render } from '../../src/evals/templates.js';

const item = { question: 'Capital of France?', answer: 'Paris', meta: { n: 3, tags: ['geo'] } };

describe('templates', () => {
  it('inserts strings as they are, other values as JSON, missing ones as nothing, with spaces allowed', () => {
    const ctx = { item, sample: { output_text: '{"city":"Paris"}' } };
    expect(render('Q: {{item.question}} A: {{ item.answer }}', ctx)).toBe('Q: Capital of France? A: Paris');
    expect(render('{{item.meta}}|{{item.meta.n}}|{{item.meta.tags.0}}|{{item.none}}', ctx)).toBe(
      '{"n":3,"tags":["geo"]}|3|geo|',
    );
    expect(render('{{sample.output_text}}', ctx)).toBe('{"city":"Paris"}');
    expect(render('{{sample.output_json.city}}', ctx)).toBe('Paris');
  });
});

describe('string_check', () => {
  const check = async (operation: 'eq' | 'ne' | 'like' | 'ilike', input: string) =>
    (await grade({ type: 'string_check', name: 's', operation, input, reference: '{{item.answer}}' }, { item })).score;
  it('eq, ne, like (contains) and ilike (contains, any case)', async () => {
    expect(await check('eq', 'Paris')).toBe(1);
    expect(await check('eq', 'paris')).toBe(0);
    expect(await check('ne', 'paris')).toBe(1);
    expect(await check('like', 'It is Paris.')).toBe(1);
    expect(await check('like', 'It is PARIS.')).toBe(0);
    expect(await check('ilike', 'It is PARIS.')).toBe(1);
  });
});

describe('text similarity', () => {
  it('BLEU-4 with exp smoothing, by hand: 5 of 6 unigrams, 3/5 bigrams, 2/4 trigrams, 1/3 4-grams, no brevity penalty', () => {
    const expected = Math.exp((Math.log(5 / 6) + Math.log(3 / 5) + Math.log(2 / 4) + Math.log(1 / 3)) / 4);
    expect(bleu('the cat sat on the mat', 'the cat sat on a mat')).toBeCloseTo(expected, 12);
    expect(bleu('a b c d', 'a b c d')).toBeCloseTo(1, 12);
  });
  it('GLEU is min(precision, recall) of all 1-4-grams', () => {
    // hyp 3 words (6 n-grams), ref 4 words (10 n-grams); matches: a, b, c, "a b", "b c", "a b c" = 6.
    expect(gleu('a b c', 'a b c d')).toBeCloseTo(Math.min(6 / 6, 6 / 10), 12);
  });
  it('METEOR: exact and stem matches, fragmentation penalty', () => {
    // 3 matches (running~runs by stem) in one chunk of 3 words each: P = R = 1, penalty 0.5 (1/3)^3.
    expect(meteor('dogs running fast', 'dog runs fast')).toBeCloseTo(1 - 0.5 / 27, 12);
    expect(meteor('x y', 'a b')).toBe(0);
  });
  it('ROUGE-n F1 and ROUGE-L on rouge-score tokens (case folded)', async () => {
    // unigrams: 5 shared of 6 and 6: F1 5/6.
    expect(await similarity('rouge_1', 'The cat sat on the mat', 'the cat sat on a mat')).toBeCloseTo(5 / 6, 12);
    // bigrams: the cat, cat sat, sat on shared of 5 each: 3/5.
    expect(await similarity('rouge_2', 'The cat sat on the mat', 'the cat sat on a mat')).toBeCloseTo(3 / 5, 12);
    // LCS the cat sat on mat = 5 of 6 and 6.
    expect(await similarity('rouge_l', 'The cat sat on the mat', 'the cat sat on a mat')).toBeCloseTo(5 / 6, 12);
    expect(await similarity('rouge_5', 'a b', 'a b')).toBe(0);
  });
  it('fuzzy_match is the Indel ratio (2·matches / total length)', async () => {
    // "kitten" vs "sitting": LCS "ittn" = 4, lengths 6 + 7: 8/13 = 0.615… → fuzzball rounds to 62.
    expect(await similarity('fuzzy_match', 'kitten', 'sitting')).toBe(0.62);
    expect(await similarity('fuzzy_match', 'same', 'same')).toBe(1);
  });
  it('cosine is the cosine of the embeddings', async () => {
    const embed = (texts: readonly string[]) => Promise.resolve(texts.map((t) => (t === 'a' ? [1, 0] : [1, 1])));
    expect(await similarity('cosine', 'a', 'b', { embed })).toBeCloseTo(Math.SQRT1_2, 12);
    expect(cosineOf([0, 0], [1, 1])).toBe(0);
  });
});

describe('calculate_output', () => {
  it('evaluates arithmetic and the allowed functions over the graders’ scores', () => {
    expect(evaluateExpression('0.5 * a + 0.5 * b', { a: 1, b: 0.5 })).toBeCloseTo(0.75, 12);
    expect(evaluateExpression('min(a, b) + max(a, b) ^ 2 + abs(-1) + floor(1.5) + ceil(0.2)', { a: 1, b: 2 })).toBe(8);
    expect(evaluateExpression('sqrt(a) + log(exp(b))', { a: 4, b: 1 })).toBeCloseTo(3, 12);
  });
  it('refuses unknown names, strings, comparisons and other functions', () => {
    for (const bad of ['a + c', 'random()', '"x"', 'a > b', 'a ? 1 : 0', 'x = 1', 'sin(a)', 'PI * a', 'a.b']) {
      expect(() => evaluateExpression(bad, { a: 1, b: 2 }), bad).toThrow(ExpressionError);
    }
  });
});

describe('grader checks', () => {
  const scope = {
    itemSchema: { type: 'object', properties: { answer: { type: 'string' } } },
    sample: false,
    requireThreshold: true,
  };
  const issuesOf = (graders: Grader[]) => {
    try {
      checkGraders(graders, 'testing_criteria', scope);
    } catch (e) {
      if (e instanceof ApiError) return { code: e.code, paths: (e.issues ?? []).map((i) => i.path) };
      throw e;
    }
    return null;
  };
  it('a template naming a missing field, or the sample where there is none, is named', () => {
    expect(
      issuesOf([
        {
          type: 'string_check',
          name: 'a',
          operation: 'eq',
          input: '{{item.nope}}',
          reference: '{{sample.output_text}}',
        },
      ]),
    ).toEqual({ code: 'invalid_request', paths: ['testing_criteria.0.input', 'testing_criteria.0.reference'] });
  });
  it('thresholds outside the range, a missing threshold, unknown passing labels and bad formulas are named', () => {
    const input = [{ role: 'user' as const, content: '{{item.answer}}' }];
    expect(
      issuesOf([
        {
          type: 'text_similarity',
          name: 'a',
          input: 'x',
          reference: 'y',
          evaluation_metric: 'bleu',
          pass_threshold: 1.5,
        },
        { type: 'text_similarity', name: 'b', input: 'x', reference: 'y', evaluation_metric: 'bleu' },
        { type: 'score_model', name: 'c', model: 'm', input, range: [1, 5], pass_threshold: 7 },
        { type: 'label_model', name: 'd', model: 'm', input, labels: ['x', 'y'], passing_labels: ['z'] },
        {
          type: 'multi',
          name: 'e',
          graders: { s: { type: 'string_check', name: 's', operation: 'eq', input: 'a', reference: 'b' } },
          calculate_output: 's + t',
        },
        { type: 'string_check', name: 'a', operation: 'eq', input: 'a', reference: 'b' },
      ]),
    ).toEqual({
      code: 'invalid_request',
      paths: [
        'testing_criteria.0.pass_threshold',
        'testing_criteria.1.pass_threshold',
        'testing_criteria.2.pass_threshold',
        'testing_criteria.3.passing_labels.0',
        'testing_criteria.4.calculate_output',
        'testing_criteria.5.name',
      ],
    });
  });
  it('python is unsupported_grader, naming the alternatives', () => {
    expect(issuesOf([{ type: 'python', name: 'p', source: 'def grade(s, i): return 1' }])).toEqual({
      code: 'unsupported_grader',
      paths: ['testing_criteria.0.type'],
    });
  });
});

describe('label replies', () => {
  it('reads the whole reply, else the label named last', () => {
    expect(labelOf(' "Correct". ', ['correct', 'incorrect'])).toBe('correct');
    expect(labelOf('I would say incorrect', ['correct', 'incorrect'])).toBe('incorrect');
    expect(labelOf('no idea', ['correct', 'incorrect'])).toBeUndefined();
  });
});
