/**
 * @module
 * Jury presets. `poll-3` is PoLL's panel (Verga et al. 2024 §2.2): three judges from three model families —
 * Command R (Cohere), Claude 3 Haiku (Anthropic), GPT-3.5 (OpenAI) — pooled by vote. The model ids are
 * OpenRouter's, so one OpenAI-compatible endpoint serves the whole panel (`LLM_BASE_URL=https://openrouter.ai/api/v1`);
 * with one provider per family, override each juror's `provider` and `model` (docs/fidelity.md shows how).
 * The prompt is FastChat's `pair-v2` (the MT-Bench / Chatbot Arena judge), as `fastchat-pair` sends it.
 */
import type { Preset } from '../../method.js';
import {
  FASTCHAT_MULTI_TURN,
  FASTCHAT_PAIR_MATH_SYSTEM,
  FASTCHAT_PAIR_MATH_TEMPLATE,
  FASTCHAT_PAIR_V2_SYSTEM,
  FASTCHAT_PAIR_V2_TEMPLATE,
} from '../single/index.js';

/** PoLL's three jurors: the paper's model families, as OpenRouter ids. */
export const POLL_JURORS = [
  { model: 'cohere/command-r-08-2024', label: 'Command R' },
  { model: 'anthropic/claude-3-haiku', label: 'Claude 3 Haiku' },
  { model: 'openai/gpt-3.5-turbo', label: 'GPT-3.5 Turbo' },
] as const;

/** Jury presets. */
export const juryPresets: Preset[] = [
  {
    id: 'poll-3',
    description:
      'PoLL: Command R, Claude 3 Haiku and GPT-3.5 judge alone with FastChat pair-v2 ([[A]]/[[B]]/[[C]]), majority vote, both orders (a winner only when both agree)',
    paper: 'Verga et al. 2024 (PoLL) §2.2-2.3, arXiv 2404.18796; prompt lm-sys/FastChat judge_prompts.jsonl pair-v2',
    taskKind: 'pairwise',
    config: {
      method: 'jury',
      judge: {
        systemPrompt: FASTCHAT_PAIR_V2_SYSTEM,
        template: FASTCHAT_PAIR_V2_TEMPLATE,
        referenceSystemPrompt: FASTCHAT_PAIR_MATH_SYSTEM,
        referenceTemplate: FASTCHAT_PAIR_MATH_TEMPLATE,
        multiTurn: FASTCHAT_MULTI_TURN,
        parser: { type: 'fastchat-verdict' },
        samples: 1,
      },
      jurors: POLL_JURORS.map((j) => ({ ...j })),
      aggregate: 'vote',
      defaults: { temperature: 0, maxTokens: 2048 },
      calibration: { enabled: true, combine: 'agree-or-tie' },
    },
  },
];
