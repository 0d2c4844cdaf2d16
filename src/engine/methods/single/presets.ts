/**
 * @module
 * Presets reproducing the papers' single-judge baselines as their authors ran them (prompts with sources in
 * `prompts.ts`, `geval-prompts.ts`; read rules in `parsers/authors.ts`; every cell in `docs/fidelity.md`).
 */
import type { Preset } from '../../method.js';
import { CHATEVAL_SINGLE_CODE } from '../chateval/index.js';
import { FASTCHAT_MULTI_TURN } from './fastchat.js';
import { GEVAL_SUMMEVAL_PROMPTS } from './geval-prompts.js';
import {
  BANDI_BASELINE_TEMPLATE,
  FAIREVAL_SYSTEM,
  FAIREVAL_TEMPLATE,
  FASTCHAT_PAIR_MATH_SYSTEM,
  FASTCHAT_PAIR_MATH_TEMPLATE,
  FASTCHAT_PAIR_V2_SYSTEM,
  FASTCHAT_PAIR_V2_TEMPLATE,
  GENERIC_POINTWISE_TEMPLATE,
  GEVAL_SUMMEVAL_TEMPLATE,
  GEVAL_TOPICAL_CHAT_TEMPLATE,
  TRAJECTORY_JSON_TEMPLATE,
} from './prompts.js';

/**
 * G-Eval's sampling (`gpt4_eval.py`): the form as the system message, 20 samples at temperature 2, 5 tokens,
 * no re-ask; an unreadable sample counts as 0 (`parse_output`), the mean is over all 20.
 */
const GEVAL_SAMPLING = {
  templateRole: 'system',
  parser: { type: 'geval-score' },
  unparsed: 'zero',
  samples: 20,
  parseRetries: 0,
  defaults: { temperature: 2, maxTokens: 5 },
} as const;

/** Presets reproducing the papers' single-agent baselines. */
export const singleAgentPresets: Preset[] = [
  {
    id: 'chateval-single',
    description:
      "ChatEval's single-agent baseline as the authors' GPT-4 config: its own prompt, 1-10 scores, both orders summed",
    paper: 'ChatEval §3.2 Table 1 (Single-Agent); config single_role/faireval/calc_score_comparison/gpt_4 (3bb65ab)',
    taskKind: 'pairwise',
    config: {
      method: 'single',
      template: CHATEVAL_SINGLE_CODE,
      parser: { type: 'chateval-scores', min: 1, max: 10, read: 'script' },
      unparsed: 'tie',
      samples: 1,
      parseRetries: 2,
      repair: 'resend',
      defaults: { temperature: 0, maxTokens: 512 },
      calibration: { enabled: true, combine: 'sum-scores' },
    },
  },
  {
    id: 'faireval-mec-bpc',
    description:
      'FairEval as FairEval.py: its system message and prompt, 3 samples per order at temperature 1 (MEC), every parsed sample of both orders averaged (BPC)',
    paper: 'Wang et al. 2023 (FairEval) §3.1-3.2, the ChatEval Table 1 baseline; i-Eval/FairEval FairEval.py (453c117)',
    taskKind: 'pairwise',
    config: {
      method: 'single',
      systemPrompt: FAIREVAL_SYSTEM,
      template: FAIREVAL_TEMPLATE,
      parser: { type: 'faireval-scores' },
      unparsed: 'drop',
      samples: 3,
      parseRetries: 0,
      defaults: { temperature: 1, maxTokens: 512 },
      calibration: { enabled: true, combine: 'pooled-mean' },
    },
  },
  {
    id: 'fastchat-pair',
    description:
      'MT-Bench pairwise judge (pair-v2; pair-math-v1 with a reference; their multi-turn forms for a two-turn conversation), [[A]]/[[B]]/[[C]], both orders',
    paper: 'Zheng et al. 2023 (MT-Bench, FastChat llm_judge), the benchmark of Bandi et al. (003) §5',
    taskKind: 'pairwise',
    config: {
      method: 'single',
      systemPrompt: FASTCHAT_PAIR_V2_SYSTEM,
      template: FASTCHAT_PAIR_V2_TEMPLATE,
      referenceSystemPrompt: FASTCHAT_PAIR_MATH_SYSTEM,
      referenceTemplate: FASTCHAT_PAIR_MATH_TEMPLATE,
      multiTurn: FASTCHAT_MULTI_TURN,
      parser: { type: 'fastchat-verdict' },
      samples: 1,
      defaults: { temperature: 0, maxTokens: 2048 },
      calibration: { enabled: true, combine: 'agree-or-tie' },
    },
  },
  {
    id: 'geval-summeval',
    description:
      'G-Eval on SummEval as gpt4_eval.py: its prompt per aspect as the system message (fluency 1-3, summary only), 20 samples at temperature 2, mean',
    paper: 'G-Eval (Liu et al. 2023), the baseline of DEBATE (004) Table 1 and ChatEval; nlpyang/geval (6f84404)',
    taskKind: 'pointwise',
    config: {
      method: 'single',
      ...GEVAL_SAMPLING,
      templatesByAspect: GEVAL_SUMMEVAL_PROMPTS,
      template: GEVAL_SUMMEVAL_TEMPLATE,
      aspectSet: 'summeval',
    },
  },
  {
    id: 'geval-topical-chat',
    description:
      'G-Eval settings on Topical-Chat (form as system message, 20 samples at temperature 2, mean); the form is ours: G-Eval publishes no Topical-Chat prompt',
    paper: 'G-Eval (Liu et al. 2023) Topical-Chat rows, quoted in ChatEval (000) Table 2 and DEBATE (004) Table 1',
    taskKind: 'pointwise',
    config: { method: 'single', ...GEVAL_SAMPLING, template: GEVAL_TOPICAL_CHAT_TEMPLATE, aspectSet: 'topical-chat' },
  },
  {
    id: 'bandi-baseline',
    description:
      "Bandi et al.'s baseline judge as main.py: its prompt, six criteria 1-20 each summed, the first (s1, s2) tuple",
    paper:
      'Bandi et al. (003) Table 1 Baseline, Appendix E.3; LLM-Judging-Architectures utils/basemodel.py, main.py (2c4e937)',
    taskKind: 'pairwise',
    config: {
      method: 'single',
      template: BANDI_BASELINE_TEMPLATE,
      parser: { type: 'bandi-tuple', rule: 'first-decimal' },
      samples: 1,
      parseRetries: 0,
      defaults: { temperature: 0, maxTokens: 2048 },
    },
  },
  {
    id: 'rubric-judge',
    description:
      'A single judge for your own pointwise rubric: a G-Eval-style form with your criteria and steps (one score), or every aspect in one call answered as one JSON object',
    paper: "Ours, in G-Eval's form (Liu et al. 2023); for rubrics and several aspects per request",
    taskKind: 'pointwise',
    config: {
      method: 'single',
      template: GENERIC_POINTWISE_TEMPLATE,
      parser: { type: 'leading-number', min: 1, max: 5 },
      aspectsInOneCall: true,
      samples: 1,
      defaults: { temperature: 0, maxTokens: 1024 },
    },
  },
  {
    id: 'trajectory-judge',
    description:
      "A single judge for an agent's run (a `trajectory` task): task completion, tool selection, argument correctness, plan adherence, step efficiency and error recovery (or your rubric's aspects) in one call, and the first failing step with its span id",
    paper:
      "Ours: the one-call form of `rubric-judge` over the rendered run; aspects after DeepEval's and MLflow's agent metrics",
    taskKind: 'trajectory',
    config: {
      method: 'single',
      template: GENERIC_POINTWISE_TEMPLATE,
      aspectsTemplate: TRAJECTORY_JSON_TEMPLATE,
      parser: { type: 'leading-number', min: 1, max: 5 },
      aspectsInOneCall: true,
      samples: 1,
      defaults: { temperature: 0, maxTokens: 2048 },
    },
  },
];
