/**
 * @module
 * ChatEval's role library and the config of a debater:
 * - role prompts in two readings (`promptSource`): `code` — the authors' FairEval configs (thunlp/ChatEval
 *   @ 3bb65ab; Critic writes "judgement"); `paper` — Appendix A verbatim ("judgment", curly apostrophes);
 *   Psychologist and Scientist exist only in Appendix A;
 * - the same-role ablation: `code` — `Annotator1`, `Annotator2` with "You are Annotator<k>, one of the
 *   referees in this task."; `paper` — §4.1's "You are now an Annotator, one of the referees in the text
 *   evaluation task." for every agent;
 * - the arXiv version's role groups (§4.1, Figure 3). `generic` is the configs' order (General Public,
 *   Critic, News Author: `three_different_role`); the paper quotes only the opening of one `coding` prompt,
 *   so the coding / writing / knowledge prompts are ours, written in Appendix A's style.
 */
import { z } from 'zod';
import type { AgentParams } from '../../method.js';
import { AgentParamsSchema } from '../../method.js';
import type { RoleText } from './prompts.js';
import { CODE_ROLES, PAPER_ROLES, SAME_ROLE_PAPER, sameRoleCode } from './prompts.js';

/** Which text the authors' prompts and roles come from: their configs (default) or the paper. */
export const PromptSourceSchema = z.enum(['code', 'paper']);
export type PromptSource = z.infer<typeof PromptSourceSchema>;

const referee = 'one of the referees in this task.';
const help = 'Please help other people to determine which response is the better one.';
const role = (name: string, description: string): RoleText => ({ name, description });

/** Group roles beyond Appendix A (authored for Tribunal, see the module note). */
const GROUP_ROLES: readonly RoleText[] = [
  role(
    'Guido van Rossum',
    `You are Guido van Rossum. You are the creator of the Python programming language, ${referee} You value readable, correct and idiomatic code and clear explanations of it. ${help}`,
  ),
  role(
    'Linus Torvalds',
    `You are Linus Torvalds, the creator of Linux and Git, ${referee} You judge code by whether it actually works, handles edge cases and stays simple. ${help}`,
  ),
  role(
    'Donald Knuth',
    `You are Donald Knuth, the author of The Art of Computer Programming, ${referee} You check algorithms for correctness and efficiency and explanations for precision. ${help}`,
  ),
  role(
    'Ernest Hemingway',
    `You are Ernest Hemingway, the novelist, ${referee} You value vivid, economical prose and writing that serves the reader's request. ${help}`,
  ),
  role(
    'Copy Editor',
    `You are Copy Editor, ${referee} You will check grammar, clarity, structure and consistency of style. ${help}`,
  ),
  role(
    'Literary Critic',
    `You are Literary Critic, ${referee} You judge originality, tone, and how well a text achieves its purpose. ${help}`,
  ),
  role(
    'Historian',
    `You are Historian, ${referee} You check facts, dates and context against the historical record and notice unsupported claims. ${help}`,
  ),
  role(
    'Encyclopedia Editor',
    `You are Encyclopedia Editor, ${referee} You check that statements are accurate, complete, neutral and well explained. ${help}`,
  ),
];

/** {@link roleLibrary}'s result per reading: built once, as every debater of every step asks for it. */
const LIBRARIES = new Map<PromptSource, Readonly<Record<string, RoleText>>>();

/** Every library role by name in one reading (built once per reading; frozen, as it is shared). */
export function roleLibrary(source: PromptSource): Readonly<Record<string, RoleText>> {
  let library = LIBRARIES.get(source);
  if (!library) {
    library = Object.freeze(buildLibrary(source));
    LIBRARIES.set(source, library);
  }
  return library;
}

function buildLibrary(source: PromptSource): Record<string, RoleText> {
  const texts: Record<string, string> = { ...PAPER_ROLES, ...(source === 'code' ? CODE_ROLES : {}) };
  return Object.fromEntries(
    [...Object.entries(texts).map(([name, d]) => role(name, d)), ...GROUP_ROLES].map((r) => [r.name, r]),
  );
}

/** Names a config may use for library roles (the same in both readings). */
export const ROLE_NAMES: readonly string[] = Object.keys(roleLibrary('paper'));

/** Appendix A's order: the default roles when neither the agent nor a group names one. */
const APPENDIX_ORDER = Object.keys(PAPER_ROLES);

/** Role groups of the arXiv version, §4.1 / Figure 3. `generic` in the authors' configs' order. */
export const ROLE_GROUPS = {
  generic: ['General Public', 'Critic', 'News Author'],
  coding: ['Guido van Rossum', 'Linus Torvalds', 'Donald Knuth'],
  writing: ['Ernest Hemingway', 'Copy Editor', 'Literary Critic'],
  knowledge: ['Scientist', 'Historian', 'Encyclopedia Editor'],
} as const satisfies Record<string, readonly string[]>;
export type RoleGroup = keyof typeof ROLE_GROUPS;

/** A role in a config: a library role by name, or a custom `{ name, description }`. */
export const RoleRefSchema = z.union([
  z.string().refine((n) => ROLE_NAMES.includes(n), {
    message: `unknown role; library roles: ${ROLE_NAMES.join(', ')}; or give { name, description }`,
  }),
  z
    .object({
      /** Display name, also the `{{agent_name}}` in prompts, 1-64 characters. */
      name: z.string().min(1).max(64),
      /** The role prompt, 1-4000 characters. */
      description: z.string().min(1).max(4_000),
    })
    .strict(),
]);
export type RoleRef = z.infer<typeof RoleRefSchema>;

/** One debater: a role (default: from `roleGroup`, else Appendix A in order) and model settings. */
export const DebaterSchema = z.object({ ...AgentParamsSchema.shape, role: RoleRefSchema.optional() }).strict();
export type Debater = z.infer<typeof DebaterSchema>;

/** Role-assignment fields shared by ChatEval and the ensemble. */
export const RoleAssignmentShape = {
  /** Fills the roles of agents that give none, in group order. Default: Appendix A order. */
  roleGroup: z.enum(['generic', 'coding', 'writing', 'knowledge']).optional(),
  /** Whose text the library roles, prompts and same-role ablation use: the authors' configs or the paper. Default `code`. */
  promptSource: PromptSourceSchema.default('code'),
};

/** A debater ready to speak: id, role, and its model settings (unresolved against defaults). */
export interface ResolvedAgent {
  /** `agent0`, `agent1`, ... */
  id: string;
  /** Name shown in the history, the prompt and the vote label (numbered when names repeat). */
  name: string;
  description: string;
  params: AgentParams;
}

/** Options of {@link resolveAgents}. */
export interface RoleOptions {
  group?: RoleGroup | undefined;
  sameRole?: boolean;
  source?: PromptSource;
}

function roleOf(agent: Debater, i: number, o: RoleOptions): RoleText | undefined {
  const source = o.source ?? 'code';
  if (o.sameRole) return source === 'code' ? sameRoleCode(i + 1) : role('Annotator', SAME_ROLE_PAPER);
  const ref = agent.role ?? (o.group ? ROLE_GROUPS[o.group][i] : APPENDIX_ORDER[i]);
  if (ref === undefined) return undefined;
  return typeof ref === 'string' ? roleLibrary(source)[ref] : ref;
}

/**
 * Resolves the debaters' roles. Repeated names are numbered (`Annotator 1`, `Annotator 2`), so the chat
 * history stays attributable.
 * @returns the agents, or the index of the first agent without a role.
 */
export function resolveAgents(
  agents: readonly Debater[],
  o: RoleOptions = {},
): { ok: true; agents: ResolvedAgent[] } | { ok: false; missing: number } {
  const roles: RoleText[] = [];
  for (const [i, a] of agents.entries()) {
    const r = roleOf(a, i, o);
    if (!r) return { ok: false, missing: i };
    roles.push(r);
  }
  const count = (name: string) => roles.filter((r) => r.name === name).length;
  const seen = new Map<string, number>();
  return {
    ok: true,
    agents: roles.map((r, i) => {
      const k = (seen.get(r.name) ?? 0) + 1;
      seen.set(r.name, k);
      const { role: _role, ...params } = agents[i] ?? {};
      return {
        id: `agent${i}`,
        name: count(r.name) > 1 ? `${r.name} ${k}` : r.name,
        description: r.description,
        params,
      };
    }),
  };
}

/** Same as {@link resolveAgents} for a config that already passed its schema's role check. */
export function agentsOf(agents: readonly Debater[], o: RoleOptions = {}): ResolvedAgent[] {
  const r = resolveAgents(agents, o);
  if (!r.ok) throw new Error(`agents[${r.missing}] has no role (the config schema should have rejected it)`);
  return r.agents;
}
