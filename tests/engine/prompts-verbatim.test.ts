/**
 * The authors' prompts, byte for byte. Each expected value is the SHA-256 of the authors' text at the cited
 * commit, computed outside the repository (we do not ship their files):
 * - ChatEval YAML configs: the string value after `yaml.safe_load`, `${x}` slots as written;
 * - G-Eval: the prompt file's bytes;
 * - FairEval: `gen_prompt`'s `prompt_template.format(question='${question}', answer_1='${answer_1}',
 *   answer_2='${answer_2}', prompt=default_prompt)` and `sys_prompt`, read with `ast.literal_eval`;
 * - Bandi et al.: the Python template strings of `utils/*.py`, `{x}` slots written `{{x}}`;
 * - DEBATE: the paper's printed text (its repository has no licence), see the last block.
 * Our constants are mapped back to the authors' slot syntax (and slot names) before hashing, so a changed
 * character anywhere fails here.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CODE_BASELINE,
  CODE_MORE_AGGREGATE,
  CODE_MORE_DEFEND,
  CODE_MORE_JUDGE_FEEDBACK,
  CODE_MORE_SCORE,
  CODE_SAMRE_DEFEND,
  CODE_SAMRE_JUDGE,
  CODE_SAMRE_SUMMARIZER,
  CODE_SAMRE_VOTE,
} from '../../src/engine/methods/bandi/index.js';
import {
  CHATEVAL_PAIRWISE_CODE,
  CHATEVAL_PAIRWISE_FINAL,
  CHATEVAL_SINGLE_CODE,
  CHATEVAL_SUMMARY_CODE,
  CODE_ROLES,
  sameRoleCode,
  TOPICAL_CHAT_FINAL,
  TOPICAL_CHAT_ROLES,
  TOPICAL_CHAT_TEMPLATES,
} from '../../src/engine/methods/chateval/index.js';
import {
  COMMANDER_MESSAGE,
  CRITIC_PERSONAS,
  SCORER_SYSTEM,
  TIE_BREAKER_SYSTEM,
} from '../../src/engine/methods/debate/prompts.js';
import { FAIREVAL_SYSTEM, FAIREVAL_TEMPLATE, GEVAL_SUMMEVAL_PROMPTS } from '../../src/engine/methods/single/index.js';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** `{{x}}` → `${renames[x] ?? x}`: our slot syntax back to the authors' YAML / Python sentinel. */
function dollar(text: string, renames: Record<string, string> = {}): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => `\${${renames[name] ?? name}}`);
}

describe('ChatEval prompts (thunlp/ChatEval @ 3bb65ab, agentverse/tasks/llm_eval/)', () => {
  const GPT4 =
    'multi_role/only_static_assign/faireval/two_turns_sequential/two_different_role/calc_score_comparison/gpt_4';
  it(`${GPT4}: prompt, final_prompt_to_use, both role_descriptions`, () => {
    expect(sha(dollar(CHATEVAL_PAIRWISE_CODE))).toBe(
      '027665db1c3503da7ef054d4b6dc39d88cc78101b43b7828cdf5eb295720c786',
    );
    expect(sha(CHATEVAL_PAIRWISE_FINAL)).toBe('604350bda5dce94862e7f9b0d3035b861bf441d8084857ceb3b0d684c8e8283b');
    expect(sha(CODE_ROLES['General Public'])).toBe('e5406ce4fbc4c718fdb0a857649255c96bdaeda69b7cbbfc215ea5e82afc076a');
    expect(sha(CODE_ROLES.Critic)).toBe('5f4cd384bab4aa8d0d82402b8dc0e29f72a1d961fa2b7097faf92f790429a2d3');
  });

  it('three_different_role/gpt_4: News Author; single_role gpt_4; summary; same-role', () => {
    expect(sha(CODE_ROLES['News Author'])).toBe('4ef28199d228bdb92b02b57a96f45e2f0468d88dfc5c7af86a712cbb95af371a');
    const single = dollar(CHATEVAL_SINGLE_CODE, {
      question: 'source_text',
      answer_a: 'compared_text_one',
      answer_b: 'compared_text_two',
    });
    expect(sha(single)).toBe('bd2d40644d652802b0d35608f7e8db7c639fb26712f3fdf07b8f61fa96c8c901');
    expect(sha(dollar(CHATEVAL_SUMMARY_CODE))).toBe('90f9b2714d3f422d9b8aa15ef4810b1df5c576ec956747513e03476ebe7cedf2');
    expect(sha(sameRoleCode(1).description)).toBe('1ca7ee269bd06e10d883e3c9a8e82a2bf72834adbe0d4180919b59c9036c486e');
    expect(sha(sameRoleCode(2).description)).toBe('67eee90dcbf9b4f465f7825b80ec53b0ce897b0739ea05ac8f23f2da84b6ccda');
    expect(sameRoleCode(2).name).toBe('Annotator2');
  });

  it('Topical-Chat (@ 3f7612f, topical_chat/two_turns_sequential/naturalness/thought): prompt, final, roles', () => {
    expect(sha(dollar(TOPICAL_CHAT_TEMPLATES.naturalness))).toBe(
      'dc1c32d2e1b429291bd550643f5fcdd55f71c06d4f4aac0a7903a3301ffac401',
    );
    expect(sha(TOPICAL_CHAT_FINAL.replace('{{aspect}}', 'Naturalness'))).toBe(
      '8fb74c176cb41229f525971afd400465901f2d1ccf9f14d35c44e5b3c910ccff',
    );
    expect(TOPICAL_CHAT_ROLES.map((r) => [r.name, sha(r.description)])).toEqual([
      ['Critic', 'c39b0118bfa7ed89c57dc08bb047dc33c299a7b299b3158fafa5670abdb8ce68'],
      ['General Public', 'b4f54969c17e9ca8d353b66e071972794c1342656d7f32b775c064a2642af52c'],
      ['News Author', '82d619e3c5684b5a90d6e82a9250117f660103202ebe4af8146138827c308df6'],
    ]);
    // The other aspects' configs differ from naturalness only in the criteria block and step 2.
    const strip = (t: string) =>
      t.replace(/Evaluation Crieteria:[\s\S]*?Evaluation Steps:/, '').replace(/\n2\. Rate [^\n]*/, '');
    for (const t of Object.values(TOPICAL_CHAT_TEMPLATES))
      expect(strip(t)).toBe(strip(TOPICAL_CHAT_TEMPLATES.naturalness));
    expect(TOPICAL_CHAT_TEMPLATES.groundedness).toContain(
      'Groundedness (0 or 1) Is whether the response is based on the corresponding fact and knowledge.',
    );
    expect(TOPICAL_CHAT_TEMPLATES.engagingness).toContain(
      '2. Rate the response on a scale of 1-3 for engagingness, according to the criteria above.',
    );
  });
});

describe('single-judge baselines', () => {
  it('G-Eval SummEval prompt files (nlpyang/geval @ 6f84404, prompts/summeval/*_detailed.txt), as read in text mode', () => {
    expect(Object.fromEntries(Object.entries(GEVAL_SUMMEVAL_PROMPTS).map(([k, v]) => [k, sha(v)]))).toEqual({
      coherence: '3036b788c0c7aa3c7147a71b1ff9897c42b8303624c731a3d731218d349d871b',
      consistency: 'ce74a0de8f19f2f0d31c77d1df76eece9b29fd14fee1f2bb82b462846eac62fa',
      fluency: '128ad51b29f9cb7badf086cd0ebc1d4a53772b0f89c5cf051050f6c76e046e57',
      relevance: '4d55e0539987885d4c0aad448f22e67d58b2afeca9dd3f53e16092213f8b0ae6',
    });
    for (const text of Object.values(GEVAL_SUMMEVAL_PROMPTS)) expect(text).not.toContain('\r');
  });

  it('FairEval gen_prompt (i-Eval/FairEval @ 453c117, FairEval.py): system and user message', () => {
    expect(sha(FAIREVAL_SYSTEM)).toBe('8ec001fd8f1a623f9e444c9eca7be1cc3ee529003e931167a1b44958132baf33');
    const user = dollar(FAIREVAL_TEMPLATE, { answer_a: 'answer_1', answer_b: 'answer_2' });
    expect(sha(user)).toBe('b741ace5cdc7c9cd2603613f3a7e95bddd7b4707467ed4237fdbf220dc2055ef');
  });
});

describe('Bandi et al. code prompts (abirharrasse/LLM-Judging-Architectures @ 2c4e937, utils/)', () => {
  it('MORE, SAMRE and the baseline, as the code sends them', () => {
    const prompts = {
      MORE_DEFEND: CODE_MORE_DEFEND,
      MORE_AGGREGATE: CODE_MORE_AGGREGATE,
      MORE_JUDGE_FEEDBACK: CODE_MORE_JUDGE_FEEDBACK,
      MORE_SCORE: CODE_MORE_SCORE,
      SAMRE_DEFEND: CODE_SAMRE_DEFEND,
      SAMRE_JUDGE: CODE_SAMRE_JUDGE,
      SAMRE_SUMMARIZER: CODE_SAMRE_SUMMARIZER,
      SAMRE_VOTE: CODE_SAMRE_VOTE,
      BASELINE: CODE_BASELINE,
    };
    expect(Object.fromEntries(Object.entries(prompts).map(([k, v]) => [k, sha(v)]))).toEqual({
      MORE_DEFEND: 'f3f3d661c71785f3a235cb310127408c16b6a3e7f418b3da796c709b059c2b92',
      MORE_AGGREGATE: '2b25338621931e7d2902eb0f67c95fdd9349c89c28affd08c46c2c728728e652',
      MORE_JUDGE_FEEDBACK: 'eff3a82e035404294163357f93ede56c5403b4857c42d53cd1a91867793cc3af',
      MORE_SCORE: '21360c1d9e9aa78f9518682ab3c354916b4b14b8d45a3b9d559e17c4f3ec342c',
      SAMRE_DEFEND: '20047d30e2ec0c309b10a4da5be45bc60a9a4541f83af1c7dc6e6602650d5f36',
      SAMRE_JUDGE: 'd6edff4afe7e28dcee5add54917cf7e855b1ef0f4bf86a05231a2ac13bf2fdaf',
      SAMRE_SUMMARIZER: '12f5cb11c9c27bfe47138d6fb6d2dde36a87ca8dc98c258c9919411808bd0130',
      SAMRE_VOTE: 'fbee3d9640332308803197497498dd4d3b671a22348b1c9456f034ee5a7f0784',
      BASELINE: 'e50996779a363ed0cf33cc5652d6ff7dfd10ddddfe96beda38ce3d68c29dcf7b',
    });
  });
});

// DEBATE's repository has no licence, so its prompts are taken from the paper where it prints them: the
// expected values are the SHA-256 of the paper's text (Kim et al. 2024, "DEBATE: Devil's Advocate-Based
// Assessment and Text Evaluation" — §3's Devil's Advocate message and Appendix E.1's system messages),
// extracted from the PDF's text outside the repository.
describe('DEBATE system messages (Kim et al. 2024, §3 and Appendix E.1)', () => {
  it('Commander and Scorer (E.1)', () => {
    expect(sha(COMMANDER_MESSAGE)).toBe('156c6ae5999412788f5ed81ad45204e6668791d50f18818007eb15d39ab7770b');
    expect(sha(SCORER_SYSTEM)).toBe('ae8b435653e574f9c2f3b91365992482583d24346b866206f33393327d911f8f');
  });

  it("the Critic's personas: strict (§3 Devil's Advocate), moderate, weak, plain (E.1)", () => {
    expect(Object.fromEntries(Object.entries(CRITIC_PERSONAS).map(([k, v]) => [k, sha(v)]))).toEqual({
      strict: '741bfe179a19bd5daf8e64305626fe7a90cfcbe5b141d5873ed89ccbb88e4d11',
      moderate: 'dded5c442720ad8bf3c3de23e123d44db1cc8f6756cf061f43870408ef8dc4ad',
      weak: 'a1adfb48fc2a4588df52c51a93e68060f544669541859d88c53a33744852a795',
      plain: 'bb550347210f0cf19ed67bdf90c26a44089e9b566b05032e474003037edb7c0c',
    });
  });

  it('Tie-breaker (E.1, written for SummEval)', () => {
    expect(sha(TIE_BREAKER_SYSTEM)).toBe('96c56668be0f6110001cd2f2cbab2f1ba9e748a03f46fa0d5e57375d81fee2dd');
  });
});
