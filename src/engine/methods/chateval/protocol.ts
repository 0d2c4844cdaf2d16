/**
 * @module
 * ChatEval (Chan et al.) as a protocol: N debaters with role prompts discuss for T turns, then each gives a
 * final judgement. Strategies (Appendix B, as the authors' code runs them):
 * - `one-by-one` (Alg. 1; `order: sequential`): every agent speaks each turn in order and sees everything
 *   said before it, its own messages included, as `[Name]: message` lines; an empty message (an agent out
 *   of tries sends `""`) is dropped, and a step in which nobody spoke adds a `[Silence]` line (the updater);
 * - `simultaneous-talk` (Alg. 2; `order: concurrent`): per turn all agents speak in parallel on the history
 *   of the earlier turns;
 * - `simultaneous-talk-with-summarizer` (Alg. 3): as simultaneous-talk, but before each turn after the first
 *   every agent's memory is summarised by a separate call (`memory_manipulator/summary.py`: "Current summary"
 *   = that agent's previous summary, "New lines" = its whole memory as `[sender] : message` lines) and the
 *   summary is **added** to that agent's memory as a message from `Summarizer` (`summaryMode: 'append'`, the
 *   code). `summaryMode: 'replace'` is the arXiv text: the history is the latest summary only.
 * Only the last turn carries the final instruction and the score parser. Verdicts: see `shared.ts`.
 * Under a budget (`truncate`) only the final turn can be cut, once an agent gave its final judgement.
 */
import { z } from 'zod';
import type { CallSpec, FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { AgentParamsSchema, CommonConfigShape, resolveAgentParams } from '../../method.js';
import type { ParsedValue } from '../../parsers/spec.js';
import type { JudgedTask } from '../../judged.js';
import { mergeSlotTables, renderWithCriteria, requireOneDigitScale, requireSlots } from '../../slots.js';
import { renderTemplate, templateField, templateText } from '../../template.js';
import {
  CHATEVAL_SLOTS,
  CHATEVAL_PAIRWISE_CODE,
  CHATEVAL_PAIRWISE_FINAL,
  CHATEVAL_PAIRWISE_PAPER,
  CHATEVAL_POINTWISE_FINAL,
  CHATEVAL_POINTWISE_GENERIC,
  CHATEVAL_SUMMARY_CODE,
} from './prompts.js';
import type { ResolvedAgent } from './roles.js';
import { agentsOf, DebaterSchema, resolveAgents } from './roles.js';
import { TOPICAL_CHAT_SLOTS } from './topical-chat.js';
import {
  CRITERIA_SLOT_PLACEHOLDERS,
  finalFormat,
  JudgePromptShape,
  pairwiseVerdict,
  pointwiseVerdict,
  requireCriteriaFor,
  TASK_PAIRWISE,
  TASK_POINTWISE,
  taskVars,
  voteOf,
} from './shared.js';

/** Placeholders each template may use. */
export const TEMPLATE_PLACEHOLDERS = {
  pairwise: [...TASK_PAIRWISE, 'chat_history'],
  pointwise: [...TASK_POINTWISE, 'chat_history'],
  soloPairwise: TASK_PAIRWISE,
  soloPointwise: TASK_POINTWISE,
  final: ['aspect', 'scale_min', 'scale_max'],
  summary: ['summary', 'new_lines'],
} as const;

/** ChatEval's communication strategies (Appendix B). */
export const STRATEGIES = ['one-by-one', 'simultaneous-talk', 'simultaneous-talk-with-summarizer'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** ChatEval config; every field has a default (General Public + Critic, one-by-one, 2 turns, the authors' prompts). */
export const chatEvalConfigSchema = z
  .object({
    method: z.literal('chateval'),
    ...CommonConfigShape,
    ...JudgePromptShape,
    /** Communication strategy. Default `one-by-one`. */
    strategy: z.enum(STRATEGIES).default('one-by-one'),
    /** Discussion turns; every agent speaks once per turn. 1-10, default 2. */
    turns: z.number().int().min(1).max(10).default(2),
    /** 1-8 debaters in speaking order. Default General Public + Critic (the FairEval configs). */
    agents: z
      .array(DebaterSchema)
      .min(1)
      .max(8)
      .default([{ role: 'General Public' }, { role: 'Critic' }]),
    /** Same-role ablation (§4.1): every agent gets the Annotator prompt (text per `promptSource`). Default false. */
    sameRole: z.boolean().default(false),
    /** Model settings of the summary calls. Default: `defaults`. */
    summarizer: AgentParamsSchema.default({}),
    /** `append` (the code): the summary joins the agent's memory; `replace` (arXiv): it is the whole history. Default `append`. */
    summaryMode: z.enum(['append', 'replace']).default('append'),
    /** Prompt templates; unset ones are the authors' (per `promptSource`). */
    templates: z
      .object({
        /** Pairwise discussion prompt. Default: the GPT-4 FairEval config's (`code`) or Table 6 (`paper`). */
        pairwise: templateField(TEMPLATE_PLACEHOLDERS.pairwise),
        pairwiseFinal: templateField(TEMPLATE_PLACEHOLDERS.final, CHATEVAL_PAIRWISE_FINAL),
        /** Pointwise discussion prompt for aspects without their own. Default: ours. */
        pointwise: templateField(TEMPLATE_PLACEHOLDERS.pointwise, CHATEVAL_POINTWISE_GENERIC),
        /** Pointwise discussion prompts by lower-case aspect name (the authors' are per aspect). Default {}. */
        pointwiseByAspect: z.record(z.string(), templateText(TEMPLATE_PLACEHOLDERS.pointwise)).default({}),
        pointwiseFinal: templateField(TEMPLATE_PLACEHOLDERS.final, CHATEVAL_POINTWISE_FINAL),
        summary: templateField(TEMPLATE_PLACEHOLDERS.summary, CHATEVAL_SUMMARY_CODE),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((c, ctx) => {
    const r = resolveAgents(c.agents, { group: c.roleGroup, sameRole: c.sameRole, source: c.promptSource });
    if (!r.ok) {
      ctx.addIssue({
        code: 'custom',
        path: ['agents', r.missing, 'role'],
        message: 'this agent needs a role: the role group (or Appendix A) has no role for this position',
      });
    }
  });
export type ChatEvalConfig = z.infer<typeof chatEvalConfigSchema>;

/** ChatEval's state: reply text by call id and the parsed final-turn replies by agent index. Plain JSON. */
export interface ChatEvalState {
  replies: Record<string, string>;
  /** null when the final reply never parsed. */
  finals: Record<string, ParsedValue | null>;
  /** Set when a budget refused a final-turn call: only the agents whose final replies came in vote (absent otherwise). */
  truncated?: true;
}

interface Slot {
  /** `turn<t>/agent<k>` or `turn<t>/summary/agent<k>` (the summary made before turn t). */
  id: string;
  kind: 'speak' | 'summary';
  turn: number;
  agent: number;
}

const speakId = (turn: number, agent: number) => `turn${turn}/agent${agent}`;
const summaryId = (turn: number, agent: number) => `turn${turn}/summary/agent${agent}`;

/** Waves of calls in dependency order: one call per wave one-by-one; per turn a summary wave, then a speaking wave. */
function schedule(config: ChatEvalConfig): Slot[][] {
  const n = config.agents.length;
  const each = (kind: Slot['kind'], turn: number) =>
    Array.from({ length: n }, (_, agent): Slot => ({
      id: (kind === 'speak' ? speakId : summaryId)(turn, agent),
      kind,
      turn,
      agent,
    }));
  const waves: Slot[][] = [];
  for (let turn = 1; turn <= config.turns; turn++) {
    if (config.strategy === 'simultaneous-talk-with-summarizer' && turn > 1) waves.push(each('summary', turn));
    const speakers = each('speak', turn);
    if (config.strategy === 'one-by-one') waves.push(...speakers.map((s) => [s]));
    else waves.push(speakers);
  }
  return waves;
}

/** One entry of an agent's memory, in order. */
interface MemoryEntry {
  /** The speaker; empty for the updater's `[Silence]`, which has no sender. */
  sender: string;
  content: string;
}

/** The updater's note when nobody's message was added (`Message(content="[Silence]")`, no sender). */
const SILENCE: MemoryEntry = { sender: '', content: '[Silence]' };

/**
 * What the authors' updater (`environments/rules/updater/basic.py`) adds to every memory after one step:
 * the step's messages that are not empty (an agent out of tries sends `""`), or `[Silence]` when none is.
 * A step is one agent's turn one-by-one, one whole turn of all agents concurrently.
 */
function afterStep(messages: readonly MemoryEntry[]): MemoryEntry[] {
  const spoken = messages.filter((m) => m.content !== '');
  return spoken.length > 0 ? spoken : [SILENCE];
}

/** What agent `slot.agent` has in memory before `slot` (speaking slot, or summary slot of that turn). */
function memoryBefore(
  config: ChatEvalConfig,
  agents: readonly ResolvedAgent[],
  state: ChatEvalState,
  slot: Slot,
): MemoryEntry[] {
  const speech = (turn: number, k: number): MemoryEntry => ({
    sender: agents[k]?.name ?? `agent${k}`,
    content: state.replies[speakId(turn, k)] ?? '',
  });
  // One-by-one every agent's turn is a step of its own; concurrently a whole turn is one step.
  const steps = (turn: number, upTo: number): MemoryEntry[] =>
    config.strategy === 'one-by-one'
      ? agents.slice(0, upTo).flatMap((_, k) => afterStep([speech(turn, k)]))
      : afterStep(agents.slice(0, upTo).map((_, k) => speech(turn, k)));
  const out: MemoryEntry[] = [];
  for (let turn = 1; turn <= slot.turn; turn++) {
    const summary = state.replies[summaryId(turn, slot.agent)];
    // The summary made before this turn joins the memory first (unless it is the one being made now).
    if (summary !== undefined && !(turn === slot.turn && slot.kind === 'summary'))
      out.push({ sender: 'Summarizer', content: summary });
    if (turn < slot.turn) out.push(...steps(turn, agents.length));
    else if (config.strategy === 'one-by-one' && slot.kind === 'speak') out.push(...steps(turn, slot.agent));
  }
  return out;
}

/** `ChatHistoryMemory.to_string(add_sender_prefix=True)`: `[sender]: content` lines, the content alone without a sender. */
const historyText = (m: readonly MemoryEntry[]) =>
  m.map((e) => (e.sender !== '' ? `[${e.sender}]: ${e.content}` : e.content)).join('\n');
/** `SummaryMemoryManipulator`'s new lines: `[sender] : content` plus a newline, for each message. */
const newLinesText = (m: readonly MemoryEntry[]) => m.map((e) => `[${e.sender}] : ${e.content}\n`).join('');

function chatHistory(
  config: ChatEvalConfig,
  agents: readonly ResolvedAgent[],
  state: ChatEvalState,
  slot: Slot,
): string {
  if (config.strategy === 'simultaneous-talk-with-summarizer' && config.summaryMode === 'replace') {
    return slot.turn > 1 ? (state.replies[summaryId(slot.turn, slot.agent)] ?? '') : '';
  }
  return historyText(memoryBefore(config, agents, state, slot));
}

function discussionTemplate(config: ChatEvalConfig, task: JudgedTask): string {
  return discussionTemplateOf(config, task).template;
}

/** The discussion template for a task and the config field it comes from. */
function discussionTemplateOf(config: ChatEvalConfig, task: JudgedTask): { field: string; template: string } {
  if (task.kind === 'pairwise')
    return {
      field: 'config.templates.pairwise',
      template:
        config.templates.pairwise ??
        (config.promptSource === 'paper' ? CHATEVAL_PAIRWISE_PAPER : CHATEVAL_PAIRWISE_CODE),
    };
  const name = task.aspect.name.toLowerCase();
  const own = config.templates.pointwiseByAspect[name];
  return own !== undefined
    ? { field: `config.templates.pointwiseByAspect.${name}`, template: own }
    : { field: 'config.templates.pointwise', template: config.templates.pointwise };
}

/** Where a rubric's criteria stand in ChatEval's and its ensemble's prompts (src/engine/slots.ts). */
export const CHATEVAL_TEMPLATE_SLOTS = mergeSlotTables(CHATEVAL_SLOTS, TOPICAL_CHAT_SLOTS);

function callFor(
  config: ChatEvalConfig,
  task: JudgedTask,
  state: ChatEvalState,
  agents: ResolvedAgent[],
  slot: Slot,
): CallSpec {
  const agent = agents[slot.agent];
  if (!agent) throw new Error(`no agent ${slot.agent}`);
  if (slot.kind === 'summary') {
    const previous = slot.turn > 2 ? (state.replies[summaryId(slot.turn - 1, slot.agent)] ?? '') : '';
    const memory =
      config.summaryMode === 'replace'
        ? afterStep(agents.map((a, k) => ({ sender: a.name, content: state.replies[speakId(slot.turn - 1, k)] ?? '' })))
        : memoryBefore(config, agents, state, slot);
    return {
      id: slot.id,
      agent: 'summarizer',
      label: `Summarizer (${agent.name})`,
      stage: `turn ${slot.turn} summary`,
      ...resolveAgentParams(config.defaults, config.summarizer),
      messages: [
        {
          role: 'user',
          content: renderTemplate(config.templates.summary, { summary: previous, new_lines: newLinesText(memory) }),
        },
      ],
      parser: { type: 'text' },
    };
  }
  const final = slot.turn === config.turns ? finalFormat(task, config, config.templates) : undefined;
  const vars = {
    ...taskVars(task, config, agent, final?.prompt ?? ''),
    chat_history: chatHistory(config, agents, state, slot),
  };
  return {
    id: slot.id,
    agent: agent.id,
    label: agent.name,
    stage: `turn ${slot.turn}`,
    ...resolveAgentParams(config.defaults, agent.params),
    messages: [
      {
        role: 'user',
        content: renderWithCriteria(discussionTemplate(config, task), vars, task.criteria, CHATEVAL_TEMPLATE_SLOTS, {
          ...(task.kind === 'pointwise' ? { aspect: task.aspect } : {}),
        }),
      },
    ],
    parser: final?.parser ?? { type: 'text' },
  };
}

/** {@link agentsFor} per config: an evaluation steps under one config object, and its agents never change. */
const AGENTS = new WeakMap<ChatEvalConfig, ResolvedAgent[]>();

function agentsFor(config: ChatEvalConfig): ResolvedAgent[] {
  let agents = AGENTS.get(config);
  if (!agents) {
    agents = agentsOf(config.agents, {
      group: config.roleGroup,
      sameRole: config.sameRole,
      source: config.promptSource,
    });
    AGENTS.set(config, agents);
  }
  return agents;
}

/** ChatEval as a {@link MethodDefinition}. */
export const chatEvalMethod: MethodDefinition<ChatEvalConfig, ChatEvalState> = {
  method: 'chateval',
  // 2: the authors' prompts, roles and summarizer; summary ids `turn<t>/summary/…` name the turn they precede.
  // 3: an empty message is dropped from the history, `[Silence]` when nobody spoke (the authors' updater).
  version: 3,
  paper: 'ChatEval (Chan et al.) §2, Appendix A Table 6, Appendix B Alg. 1-3; thunlp/ChatEval configs',
  taskKinds: ['pairwise', 'pointwise'],
  configSchema: chatEvalConfigSchema,

  init(config, task): ChatEvalState {
    const template = discussionTemplateOf(config, task);
    requireCriteriaFor(task, template);
    requireSlots(task.criteria, [template], CHATEVAL_TEMPLATE_SLOTS, CRITERIA_SLOT_PLACEHOLDERS);
    if (task.kind === 'pointwise' && config.pointwiseRead === 'last-char')
      requireOneDigitScale(
        task.criteria,
        task.aspect.scale,
        "pointwiseRead 'last-char' reads the last character (the authors' script; 'labelled' reads more)",
      );
    return { replies: {}, finals: {} };
  },

  step(config, task, state): StepResult {
    const agents = agentsFor(config);
    for (const wave of state.truncated ? [] : schedule(config)) {
      const missing = wave.filter((s) => state.replies[s.id] === undefined);
      if (missing.length > 0)
        return { kind: 'calls', calls: missing.map((s) => callFor(config, task, state, agents, s)) };
    }
    // After a budget cut only the agents that gave their final judgement vote.
    const voters = agents.flatMap((a, i) => (!state.truncated || String(i) in state.finals ? [{ a, i }] : []));
    const votes = voters.map(({ a, i }) => voteOf(task, a, state.finals[String(i)]));
    const details = { strategy: config.strategy, turns: config.turns, agents: agents.map((a) => a.name) };
    const verdict =
      task.kind === 'pairwise' ? pairwiseVerdict(votes, config, details) : pointwiseVerdict(task, votes, details);
    return {
      kind: 'verdict',
      verdict: state.truncated
        ? {
            ...verdict,
            truncation: { agentsJudged: voters.length, agentsPlanned: agents.length, turnsRun: config.turns },
          }
        : verdict,
    };
  },

  reduce(config, _task, state, reply: FinalReply): ChatEvalState {
    const slot = schedule(config)
      .flat()
      .find((s) => s.id === reply.callId);
    if (!slot) return state;
    // The authors' agent, out of tries, sends an empty message (`content=""`), which the updater drops.
    const content = !reply.ok && config.repair === 'resend' ? '' : reply.content;
    const next: ChatEvalState = { replies: { ...state.replies, [slot.id]: content }, finals: state.finals };
    if (slot.kind === 'speak' && slot.turn === config.turns)
      next.finals = { ...state.finals, [String(slot.agent)]: reply.ok ? reply.value : null };
    return next;
  },

  plannedCalls(config): number {
    return schedule(config).flat().length;
  },

  // Scores come only from the final turn, so a budget can cut ChatEval only there, once an agent has given
  // its final judgement: the others do not vote. Refused earlier, there is nothing to conclude from.
  truncate(config, _task, state, refused): ChatEvalState | null {
    const slot = schedule(config)
      .flat()
      .find((s) => s.id === refused.callId);
    const finalTurn = slot?.kind === 'speak' && slot.turn === config.turns;
    return finalTurn && Object.keys(state.finals).length > 0 ? { ...state, truncated: true } : null;
  },
};
