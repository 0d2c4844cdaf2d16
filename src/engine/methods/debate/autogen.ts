/**
 * @module
 * DEBATE's loop as `debate.py` (gunny97/DEBATE @ 63de64f) runs it under pyautogen's reply rules, replayed
 * from the replies so far. Nothing here is copied from that repository (it has no licence): this is a model of
 * what its agents do, checked against autogen's `ConversableAgent` (microsoft/autogen `conversable_agent.py`,
 * identical in these rules at v0.1.14, v0.2.0 and v0.2.32).
 *
 * The agents: the Commander and the Scorer are `AssistantAgent`s with `max_consecutive_auto_reply=1`, the
 * Critic has the default (100); all run with `human_input_mode="NEVER"`. autogen's `receive` asks the receiver
 * for a reply when the sender requested one (`request_reply=True`) or, when it did not say, when the receiver
 * chats with that sender (`initiate_chat` set `reply_at_receive` for the Commander and the Scorer, never for
 * the Commander and the Critic). `check_termination_and_human_reply` then ends the exchange without a reply
 * when the receiver's consecutive-reply counter for that sender has reached its maximum, or when the message
 * ends with `TERMINATE` (each agent's `is_termination_msg`), resetting the counter; otherwise the counter goes
 * up and the agent answers with an LLM call. A reply is sent back the same way, so an exchange ping-pongs
 * until one side declines. With the two maxima of 1 this gives, for n = 2 and a Critic that never says
 * NO_ISSUE:
 *
 * - P → the Scorer answers S1 → the Commander answers C1 (an LLM call of its own) → the Scorer declines;
 * - iteration 1: the Critic answers K1 to P and S1; the feedback F1 → the Scorer answers S2 → the Commander
 *   declines (its counter still holds C1);
 * - iteration 2: the Critic answers K2 (its conversation holds K1); F2 → the Scorer declines.
 *
 * The score is `score_agent._oai_messages[commander][-2]`, the last-but-one message of the Scorer's
 * conversation `[P, S1, C1, F1, S2, F2]`: S2. When the second critique says NO_ISSUE, F2 is never sent and
 * that message is F1, the Commander's feedback text, so the score is read from the Critic's words.
 */

/** The agents of the loop. */
export type AutogenAgent = 'scorer' | 'commander' | 'critic';

/** `max_consecutive_auto_reply` per agent (`debate.py`; the Critic keeps autogen's default, 100). */
const MAX_AUTO_REPLY: Readonly<Record<AutogenAgent, number>> = { scorer: 1, commander: 1, critic: 100 };

/** One message of a two-agent conversation, as both agents store it (the sender's is `assistant` for itself). */
export interface ConversationMessage {
  /** Who sent it. */
  from: AutogenAgent;
  content: string;
  /** The LLM call that produced it (`score0`, `commander0`, `critic1`, …); absent for the Commander's scripted messages. */
  callId?: string;
  /** What it is: the prompt P, a feedback forward `F<i>`, a Critic forward `M<i>`, or an LLM reply. */
  kind: 'prompt' | 'feedback' | 'forward' | 'reply';
  /** The iteration it belongs to: 0 for P and the replies it drew, i for `M<i>`, `F<i>` and their replies. */
  iteration: number;
}

/** The next LLM call the loop waits for. */
export interface PendingCall {
  agent: AutogenAgent;
  callId: string;
  iteration: number;
}

/** Where the replayed loop stands. */
export interface AutogenRun {
  /** The Commander–Scorer conversation (`score_agent._oai_messages[commander]`). */
  scorer: ConversationMessage[];
  /** The Commander–Critic conversation (`critics._oai_messages[commander]`). */
  critic: ConversationMessage[];
  /** The call the loop waits for; absent when it has ended. */
  pending?: PendingCall;
  /** Critic iterations whose critique came in (or was declined). */
  iterations: number;
  /** True when the loop ended on a NO_ISSUE feedback. */
  stoppedByNoIssue: boolean;
  /** Every LLM call made, in order. */
  calls: string[];
}

/** What the replay needs from the method: the messages it scripts and how it reads replies. */
export interface AutogenScript {
  /** n, the Critic iterations (`n_iters`). */
  iterations: number;
  /** P, the first message to the Scorer. */
  prompt: string;
  /** The Commander's message to the Critic in iteration i, given the Scorer conversation so far. */
  forward(iteration: number, scorer: readonly ConversationMessage[]): string;
  /** The Commander's feedback message to the Scorer, given the Critic's last message. */
  feedback(critique: string): string;
  /** `feedback.find("NO_ISSUE") >= 0`, or the configured reading of it. */
  noIssue(text: string): boolean;
  /** The reply recorded for a call, or undefined while it is pending. */
  reply(callId: string): string | undefined;
}

/** `is_termination_msg` of all three agents: the message, right-stripped, ends with `TERMINATE`. */
export function isTermination(content: string): boolean {
  return content.trimEnd().endsWith('TERMINATE');
}

/** The id of an agent's reply in an iteration: `score<i>`, `commander<i>`, `critic<i>`. */
export function replyId(agent: AutogenAgent, iteration: number): string {
  return `${agent === 'scorer' ? 'score' : agent}${iteration}`;
}

/** Thrown inside the replay to stop at the first reply not recorded yet (caught by {@link replayAutogen}). */
class Pending extends Error {
  constructor(readonly call: PendingCall) {
    super(`waiting for ${call.callId}`);
  }
}

/**
 * Replays the loop from the recorded replies: the conversations so far and the next call, if any.
 * Pure and deterministic; never throws for any replies.
 */
export function replayAutogen(script: AutogenScript): AutogenRun {
  const counters: Record<AutogenAgent, number> = { scorer: 0, commander: 0, critic: 0 };
  const run: AutogenRun = { scorer: [], critic: [], iterations: 0, stoppedByNoIssue: false, calls: [] };

  /** `check_termination_and_human_reply`, then the LLM reply: null when the agent declines. */
  const autoReply = (agent: AutogenAgent, message: string, iteration: number): string | null => {
    if (counters[agent] >= MAX_AUTO_REPLY[agent] || isTermination(message)) {
      counters[agent] = 0;
      return null;
    }
    counters[agent] += 1;
    const callId = replyId(agent, iteration);
    const content = script.reply(callId);
    if (content === undefined) throw new Pending({ agent, callId, iteration });
    run.calls.push(callId);
    return content;
  };

  /** The Commander sends `content` to the Scorer; replies go back and forth until one side declines. */
  const toScorer = (content: string, kind: ConversationMessage['kind'], iteration: number): void => {
    run.scorer.push({ from: 'commander', content, kind, iteration });
    let receiver: AutogenAgent = 'scorer';
    let message = content;
    for (;;) {
      const reply = autoReply(receiver, message, iteration);
      if (reply === null) return;
      run.scorer.push({
        from: receiver,
        content: reply,
        kind: 'reply',
        iteration,
        callId: replyId(receiver, iteration),
      });
      receiver = receiver === 'scorer' ? 'commander' : 'scorer';
      message = reply;
    }
  };

  try {
    // `commander.initiate_chat(score_agent, message=P)`.
    toScorer(script.prompt, 'prompt', 0);
    for (let i = 1; i <= script.iterations; i++) {
      // `commander.send(..., recipient=critics, request_reply=True)`; the Commander never answers the Critic.
      const forward = script.forward(i, run.scorer);
      run.critic.push({ from: 'commander', content: forward, kind: 'forward', iteration: i });
      const critique = autoReply('critic', forward, i);
      run.iterations = i;
      if (critique !== null)
        run.critic.push({
          from: 'critic',
          content: critique,
          kind: 'reply',
          iteration: i,
          callId: replyId('critic', i),
        });
      // `commander._oai_messages[critics][-1]`: the Commander's own forward when the Critic declined.
      const feedback = run.critic.at(-1)?.content ?? '';
      if (script.noIssue(feedback)) {
        run.stoppedByNoIssue = true;
        break;
      }
      toScorer(script.feedback(feedback), 'feedback', i);
    }
  } catch (e) {
    if (!(e instanceof Pending)) throw e;
    run.pending = e.call;
  }
  return run;
}

/**
 * `score_agent._oai_messages[commander][-2]`: the message the code reads the score from, or undefined when
 * the conversation is shorter (the code then raises and the item is lost).
 */
export function finalMessage(run: AutogenRun): ConversationMessage | undefined {
  return run.scorer.at(-2);
}
