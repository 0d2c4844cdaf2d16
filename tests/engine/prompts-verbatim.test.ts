/**
 * The authors' prompts, byte for byte, as they are sent. Every hash below is taken over a message of a
 * request a preset builds (`sent`), for the fixed task and replies of this file, so anything that changes
 * the text between the constant and the wire (newline handling, assembly, slot filling) fails here. Each
 * expected value is the SHA-256 of what the authors' code sends for the same inputs, computed outside the
 * repository from their sources at the cited commits (we do not ship their files):
 * - ChatEval (thunlp/ChatEval @ 3bb65ab, `agentverse/tasks/llm_eval/`): the config's `prompt_template` after
 *   `yaml.safe_load`, filled by `string.Template(...).safe_substitute` with the agent's name, role
 *   description, texts, `final_prompt` ('' before the last turn, else `final_prompt_to_use`) and
 *   `chat_history` as `ChatHistoryMemory.to_string(add_sender_prefix=True)` renders the same replies; the
 *   summary prompt as `SummaryMemoryManipulator._fill_in_prompt_template` fills it. Topical-Chat @ 3f7612f
 *   likewise (its configs are pinned by hash in the last ChatEval test);
 * - G-Eval (nlpyang/geval @ 6f84404): `open(prompt_fp).read()` in Python's text mode, then
 *   `.replace('{{Document}}', ...).replace('{{Summary}}', ...)` (`gpt4_eval.py:19,27`);
 * - FairEval (i-Eval/FairEval @ 453c117): `gen_prompt`'s `sys_prompt` and `prompt_template.format(...)`;
 * - FastChat (lm-sys/FastChat @ 0e6d3e4b): `judge_prompts.jsonl`'s `system_prompt` and
 *   `prompt_template.format(...)` (`common.py` `run_judge_pair`);
 * - Bandi et al. (abirharrasse/LLM-Judging-Architectures @ 2c4e937): each action's `PROMPT_TEMPLATE.format(...)`
 *   or f-string evaluated with the same arguments (`utils/*.py`), after MetaGPT's role prefix
 *   (`roles/role.py` PREFIX_TEMPLATE) as the system message;
 * - DEBATE: the paper's printed system messages (its repository has no licence), and P, G-Eval's prompt file.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { CODE_MORE_JUDGE_FEEDBACK } from '../../src/engine/methods/bandi/index.js';
import {
  CHATEVAL_PAIRWISE_CODE,
  CHATEVAL_PAIRWISE_FINAL,
  CODE_ROLES,
  TOPICAL_CHAT_FINAL,
  TOPICAL_CHAT_ROLES,
  TOPICAL_CHAT_TEMPLATES,
} from '../../src/engine/methods/chateval/index.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import type { PairwiseTask, PointwiseTask, Task } from '../../src/engine/task.js';
import { readableReply } from '../support/replies.js';
import { driveByWaves } from '../support/waves.js';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

const PAIR: PairwiseTask = {
  kind: 'pairwise',
  question: 'QUESTION TEXT',
  answerA: 'ANSWER ONE TEXT',
  answerB: 'ANSWER TWO TEXT',
};
const pointwise = (aspect: string, min: number, max: number): PointwiseTask => ({
  kind: 'pointwise',
  source: 'SOURCE TEXT',
  context: 'CONTEXT TEXT',
  output: 'OUTPUT TEXT',
  aspect: { name: aspect, scale: { min, max } },
});

/** The requests a preset makes for `task` with {@link readableReply}, by id (first attempts only). */
function sent(preset: string, task: Task): Map<string, LlmCallRequest> {
  const config = resolveMethodConfig(preset, undefined);
  const method = getMethod(config.method);
  const { waves } = driveByWaves(method, createEvaluation(method, config, task), readableReply);
  return new Map(waves.flat().map((r) => [r.id, r]));
}

/** The SHA-256 of each message of a request, in order, as `role:hash`. */
function hashes(requests: Map<string, LlmCallRequest>, id: string): string[] {
  const r = requests.get(id);
  if (!r) throw new Error(`no request ${id}; made: ${[...requests.keys()].join(', ')}`);
  return r.messages.map((m) => `${m.role}:${sha(m.content)}`);
}

describe('ChatEval, as sent (thunlp/ChatEval @ 3bb65ab)', () => {
  it('chateval-faireval (two_turns_sequential/two_different_role/calc_score_comparison/gpt_4): turn 1 and the last turn', () => {
    const r = sent('chateval-faireval', PAIR);
    expect(hashes(r, 'ab/turn1/agent0')).toEqual([
      'user:247cdc01e9fdb8299ae7949834a58c05340847a0d0728849badca7372621c999',
    ]);
    expect(hashes(r, 'ab/turn2/agent1')).toEqual([
      'user:039f0fce9c05bf1f1d2135067e9807b762f0d5bcb25966ee2416875eeac65592',
    ]);
  });

  it('chateval-simultaneous-talk (two_turns_concurrent/three_different_role): News Author, turn 1 and the last turn', () => {
    const r = sent('chateval-simultaneous-talk', PAIR);
    expect(hashes(r, 'ab/turn1/agent2')).toEqual([
      'user:8f334d9e3859db4f8da8957733c03d67cd2cb305d9e64b0d2d9fa195468a0cf2',
    ]);
    expect(hashes(r, 'ab/turn2/agent0')).toEqual([
      'user:53b42852cd1e2ab0af0fa2ca097138865ea7d135b18884f4024bdcc511f0ffcb',
    ]);
  });

  it('chateval-summarizer (two_turns_summary/three_different_role): the summary prompt and the turn after it', () => {
    const r = sent('chateval-summarizer', PAIR);
    expect(hashes(r, 'ab/turn2/summary/agent0')).toEqual([
      'user:c8cc2fb3b035035db888559afc9da4385ba216165c5bacde4d1337fb05681bf3',
    ]);
    expect(hashes(r, 'ab/turn2/agent0')).toEqual([
      'user:6a24b47571bbe2bb1f3d525236d05329eb81ace527d8f1090b23dc938880b7a0',
    ]);
  });

  it('chateval-same-role (two_turns_sequential/two_same_role): Annotator2', () => {
    expect(hashes(sent('chateval-same-role', PAIR), 'ab/turn1/agent1')).toEqual([
      'user:5051853e60f38e36855d7be4de11b08fe7852d692a8e071c327c68d981f68cfa',
    ]);
  });

  it('chateval-single (single_role/faireval/calc_score_comparison/gpt_4)', () => {
    expect(hashes(sent('chateval-single', PAIR), 'ab/sample0')).toEqual([
      'user:66db4cad1bd7c4559e6013aa3ef7cec582270115709e0c4c2bf5b8b9331e1572',
    ]);
  });

  it('chateval-topical-chat (@ 3f7612f, topical_chat/two_turns_sequential/naturalness/thought): Critic first, News Author last', () => {
    const r = sent('chateval-topical-chat', pointwise('naturalness', 1, 3));
    expect(hashes(r, 'turn1/agent0')).toEqual([
      'user:1593a1e6f7de3a1130fe5db0228b4a53b2831c29eeac027c0d1b28476caaa6e5',
    ]);
    expect(hashes(r, 'turn2/agent2')).toEqual([
      'user:c4539cdcc5a7e5774d9881aae1ceb54332cdfd5681c00c71369807bc403a211f',
    ]);
  });

  it('the Topical-Chat configs the run above is filled from, pinned by hash (@ 3f7612f)', () => {
    const dollar = (t: string) => t.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => `\${${name}}`);
    expect(sha(dollar(TOPICAL_CHAT_TEMPLATES.naturalness))).toBe(
      'dc1c32d2e1b429291bd550643f5fcdd55f71c06d4f4aac0a7903a3301ffac401',
    );
    expect(sha(TOPICAL_CHAT_FINAL.replace('{{aspect}}', 'Naturalness'))).toBe(
      '8fb74c176cb41229f525971afd400465901f2d1ccf9f14d35c44e5b3c910ccff',
    );
    expect(TOPICAL_CHAT_ROLES.map((role) => [role.name, sha(role.description)])).toEqual([
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
    // And the FairEval config's parts, which every FairEval prompt above is made of.
    expect(sha(dollar(CHATEVAL_PAIRWISE_CODE))).toBe(
      '027665db1c3503da7ef054d4b6dc39d88cc78101b43b7828cdf5eb295720c786',
    );
    expect(sha(CHATEVAL_PAIRWISE_FINAL)).toBe('604350bda5dce94862e7f9b0d3035b861bf441d8084857ceb3b0d684c8e8283b');
    expect(sha(CODE_ROLES['General Public'])).toBe('e5406ce4fbc4c718fdb0a857649255c96bdaeda69b7cbbfc215ea5e82afc076a');
  });
});

describe('single-judge baselines, as sent', () => {
  it('G-Eval (nlpyang/geval @ 6f84404): the form as the system message, LF line endings, no \\r', () => {
    const aspects = [
      ['coherence', 5],
      ['consistency', 5],
      ['fluency', 3],
      ['relevance', 5],
    ] as const;
    const got = aspects.map(([aspect, max]) => {
      const r = sent('geval-summeval', pointwise(aspect, 1, max)).get('sample0');
      expect(r?.messages).toHaveLength(1);
      expect(r?.messages[0]?.content).not.toContain('\r');
      return [aspect, hashes(new Map([['x', r as LlmCallRequest]]), 'x')];
    });
    expect(Object.fromEntries(got)).toEqual({
      coherence: ['system:040f525181e5a56bfdc298556107d0c8f8269b8090907942d35fb5548f94bac5'],
      consistency: ['system:befd42b7d01cb57fa682c5844eb8ed8f7b0e03aa733503e2d2180078def8c795'],
      fluency: ['system:164872faad4deb0701137a205e04bcd29db7725dc03c358605c9c422cbee1c4f'],
      relevance: ['system:390414d1b5cea2384a1fa264698199d8a8b15a7d23b56a764c4528b8fc8f52fc'],
    });
  });

  it('FairEval (i-Eval/FairEval @ 453c117, FairEval.py gen_prompt): system and user message', () => {
    expect(hashes(sent('faireval-mec-bpc', PAIR), 'ab/sample0')).toEqual([
      'system:8ec001fd8f1a623f9e444c9eca7be1cc3ee529003e931167a1b44958132baf33',
      'user:daf1dfbd5a6f14092f0a920052193a78ab1aabb69a23a04dd1ab251ec6615117',
    ]);
  });

  it('FastChat (lm-sys/FastChat @ 0e6d3e4b): pair-v2, and pair-math-v1 with a reference', () => {
    expect(hashes(sent('fastchat-pair', PAIR), 'ab/sample0')).toEqual([
      'system:8d6df8feee26e1c9994a4fae884fc839bfcb1787a3a9522d1be611db68c93338',
      'user:8cb94b736b91717bad5138907f32b9b2328d95401912339ea5115f8dc58f5033',
    ]);
    const math = sent('fastchat-pair', { ...PAIR, reference: 'REFERENCE TEXT' });
    expect(hashes(math, 'ab/sample0')).toEqual([
      'system:0f6f71b71c14a4914b95d9272901c265d73dbc772319416e3180820c9962b2c0',
      'user:aa9a289cf668bd2829e9a4b5b8217add0554d4ab1c76a3b009422046bac09ff2',
    ]);
  });

  it("Bandi et al.'s baseline (utils/basemodel.py judge_answers): one user message", () => {
    expect(hashes(sent('bandi-baseline', PAIR), 'sample0')).toEqual([
      'user:80524fd95615028b35ebbd3e135451c1ace408da0494390891a68287bdbe6107',
    ]);
  });
});

describe('Bandi et al., as sent (abirharrasse/LLM-Judging-Architectures @ 2c4e937): the role prefix, then the prompt', () => {
  it('MORE (utils/MORE_architecture.py): an advocate, an aggregator, the scorer', () => {
    const r = sent('more-mtbench', PAIR);
    expect(hashes(r, 'advocate/a/0')).toEqual([
      'system:e8dcf4d3f45cdfd9fcc73aa53fc4715667e18ba2d3d729d53e2c419763eb9b7d',
      'user:154c250abffe36725217d47fc33d9766f356d86c0105c384d00d70bfafa7a342',
    ]);
    expect(hashes(r, 'advocate/b/2')).toEqual([
      'system:f6e51a84168f90472c6ac8905735a398bed3ea040845fd12561f2638f0847f66',
      'user:1d42fd942c001449e2409d8ce9787a73f55ea69914b8bc24aeb1fa09fc9e8756',
    ]);
    expect(hashes(r, 'aggregate/a')).toEqual([
      'system:2e2b9e6824b935f386a3849739786d6ae817d3702e9f4be0ca87bc456fafd354',
      'user:0b5950313db794fb5d2bb6cbfc1750581fd59fa26d33aabf00c758a3f8ef713b',
    ]);
    expect(hashes(r, 'judge')).toEqual([
      'system:d83a6c668e9fb27d6612d6de1f87a4a084fb4cb5aee6f947bc09d931fb03d1aa',
      'user:529c99531fc974216203bdb90fa3ed049fec34d4c8fb2abdb4c1b7fb198ca9b5',
    ]);
    // JudgeAnswer is never sent (its reply is never read in one round): its template alone.
    expect(sha(CODE_MORE_JUDGE_FEEDBACK)).toBe('eff3a82e035404294163357f93ede56c5403b4857c42d53cd1a91867793cc3af');
  });

  it('SAMRE (utils/SAMRE_architecture.py): advocates, a summary, the judge of rounds 1 and 2, a juror', () => {
    const r = sent('samre-mtbench', PAIR);
    expect(hashes(r, 'round1/advocate/a')).toEqual([
      'system:c2f2bcf792e2c2bcbcdc2d7206595b3d28ec6c09b2738dd463b1fc513efcc4af',
      'user:6899a9e75dbd624341bb725ff075063f4b472679b5fc150160ec8d9840b8b1cd',
    ]);
    expect(hashes(r, 'round1/summary/a')).toEqual([
      'system:c2f2bcf792e2c2bcbcdc2d7206595b3d28ec6c09b2738dd463b1fc513efcc4af',
      'user:dc3832b4efd2c4d46c1457a9931aba792ef1c661882d156ddbaafef8dc0c9add',
    ]);
    expect(hashes(r, 'round1/advocate/b')).toEqual([
      'system:6e7a57787d0f0b537c9d3e643062828fd0d3008980aeed1031e119d80d6ac9a0',
      'user:44b04963edc27395b560822ada015f1bb2338d4f6ee1f5cf454bb7cb5a951f67',
    ]);
    expect(hashes(r, 'round1/judge')).toEqual([
      'system:2c18730cc876d9fa9356d043f293f597f261582463d879db625a19e6e41951f5',
      'user:258d1353f3818a380df7a61b10b1252c4513645c214c60d999c3803d374c8b7c',
    ]);
    expect(hashes(r, 'round2/advocate/a')).toEqual([
      'system:c2f2bcf792e2c2bcbcdc2d7206595b3d28ec6c09b2738dd463b1fc513efcc4af',
      'user:9a934c4cfabf05b4b4608d5f201ea4ea483c9d225b649d415badced49f16a14d',
    ]);
    expect(hashes(r, 'juror/2')).toEqual([
      'system:e5addb9f519c77726a82ff429509fad882e2c65f4a1cbc108205c9d551b6d2ea',
      'user:2fa3dc73b74106c49ad33871858f3dc93d0751e51a89506feb1c7aa6f9763956',
    ]);
  });
});

// DEBATE's repository has no licence, so its system messages are the paper's printed text (Kim et al. 2024 §3
// "Devil's Advocate" and Appendix E.1), hashed from the PDF's text outside the repository; P is G-Eval's file.
describe('DEBATE, as sent (Kim et al. 2024, §3 and Appendix E.1)', () => {
  const PAPER = {
    scorer: 'ae8b435653e574f9c2f3b91365992482583d24346b866206f33393327d911f8f',
    commander: '156c6ae5999412788f5ed81ad45204e6668791d50f18818007eb15d39ab7770b',
    strict: '741bfe179a19bd5daf8e64305626fe7a90cfcbe5b141d5873ed89ccbb88e4d11',
    moderate: 'dded5c442720ad8bf3c3de23e123d44db1cc8f6756cf061f43870408ef8dc4ad',
    weak: 'a1adfb48fc2a4588df52c51a93e68060f544669541859d88c53a33744852a795',
    plain: 'bb550347210f0cf19ed67bdf90c26a44089e9b566b05032e474003037edb7c0c',
    tieBreaker: '96c56668be0f6110001cd2f2cbab2f1ba9e748a03f46fa0d5e57375d81fee2dd',
  };
  const system = (r: Map<string, LlmCallRequest>, id: string) => hashes(r, id)[0];

  it('debate-summeval: the Scorer (E.1) with P, the Commander (E.1), the strict Critic (§3)', () => {
    const r = sent('debate-summeval', pointwise('coherence', 1, 5));
    expect(hashes(r, 'score0')).toEqual([
      `system:${PAPER.scorer}`,
      'user:040f525181e5a56bfdc298556107d0c8f8269b8090907942d35fb5548f94bac5',
    ]);
    expect(system(r, 'commander0')).toBe(`system:${PAPER.commander}`);
    expect(system(r, 'critic1')).toBe(`system:${PAPER.strict}`);
  });

  it('the other personas (E.1) and the Tie-breaker (E.1, written for SummEval)', () => {
    for (const persona of ['moderate', 'weak', 'plain'] as const)
      expect(system(sent(`debate-summeval-${persona}`, pointwise('coherence', 1, 5)), 'critic1')).toBe(
        `system:${PAPER[persona]}`,
      );
    expect(system(sent('debate-tie-breaker', pointwise('coherence', 1, 5)), 'tiebreaker')).toBe(
      `system:${PAPER.tieBreaker}`,
    );
  });
});
