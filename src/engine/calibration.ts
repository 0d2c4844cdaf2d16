/**
 * @module
 * Position calibration: how the verdicts of the two presentation orders (AB as submitted, BA swapped and
 * mapped back) become one. The rule is `calibration.combine` (see {@link CalibrationSchema}):
 *
 * - `sum-scores` — ChatEval's `average` (calc_faireval_results_calc_score_calibration.py): each answer's
 *   scores added over both orders (each order's verdict scores are already that order's total), the higher
 *   total wins, equal totals tie. One comparison of two totals, not a vote.
 * - `mean-scores` — the mean of the two orders' scores.
 * - `pooled-mean` — FairEval's BPC (FairEval.py `get_eval`): the mean over every parsed sample of both
 *   orders, so an order that lost a sample weighs less.
 * - `per-agent-majority` — each agent's scores summed over the orders give that agent's winner; the agents'
 *   winners decide by majority (a shared top count is a tie). An unparsed reply adds nothing.
 * - `agree-or-tie` — FastChat: a winner only when both orders name the same one.
 *
 * A verdict with `forceTie` (the method's own unparsed rule) makes the combined winner a tie whatever the
 * rule; the scores are still reported.
 */
import type { Calibration } from './method.js';
import type { MethodVerdict, Vote, Winner } from './verdict.js';
import { majority, meanPair, winnerOf } from './verdict.js';

function swapWinner(w: Winner): Winner {
  return w === 'A' ? 'B' : w === 'B' ? 'A' : w;
}

/** Maps a verdict cast on the swapped task back to the submitted A/B. */
export function unswap(v: MethodVerdict): MethodVerdict {
  return {
    ...v,
    ...(v.winner !== undefined ? { winner: swapWinner(v.winner) } : {}),
    ...(v.scores ? { scores: { a: v.scores.b, b: v.scores.a } } : {}),
    votes: v.votes.map((vote) => ({
      ...vote,
      ...(vote.winner !== undefined ? { winner: swapWinner(vote.winner) } : {}),
      ...(vote.scores ? { scores: { a: vote.scores.b, b: vote.scores.a } } : {}),
    })),
  };
}

/**
 * Per agent: its scores from both orders summed per answer, its winner from the sums; the agents' winners
 * decide by majority. Only when every vote in both orders is a pair-scored (or unparsed) vote of a distinct
 * agent; otherwise undefined.
 */
function perAgentMajority(
  votes: readonly Vote[],
  ab: MethodVerdict,
  ba: MethodVerdict,
): { winner: Winner; scores: { a: number; b: number }; margin: number } | undefined {
  if (votes.length === 0 || votes.some((v) => v.parsed && !v.scores)) return undefined;
  const perOrderAgents = [ab.votes, ba.votes].map((vs) => vs.map((v) => v.agent));
  if (perOrderAgents.some((ids) => new Set(ids).size !== ids.length)) return undefined;
  const sums = new Map<string, { a: number; b: number }>();
  for (const v of votes) {
    const s = sums.get(v.agent) ?? { a: 0, b: 0 };
    sums.set(v.agent, { a: s.a + (v.scores?.a ?? 0), b: s.b + (v.scores?.b ?? 0) });
  }
  const totals = [...sums.values()].reduce((t, s) => ({ a: t.a + s.a, b: t.b + s.b }), { a: 0, b: 0 });
  const { winner, margin } = majority([...sums.values()].map((s) => winnerOf(s.a, s.b)));
  return { winner, scores: totals, margin };
}

/** The combined scores under a score rule, or undefined when the orders do not carry the needed scores. */
function combinedScores(
  rule: Calibration['combine'],
  ab: MethodVerdict,
  ba: MethodVerdict,
  votes: readonly Vote[],
): { a: number; b: number } | undefined {
  if (rule === 'pooled-mean') return meanPair(votes.flatMap((v) => (v.scores ? [v.scores] : [])));
  if (!ab.scores || !ba.scores) return undefined;
  const div = rule === 'mean-scores' ? 2 : 1;
  return { a: (ab.scores.a + ba.scores.a) / div, b: (ab.scores.b + ba.scores.b) / div };
}

/** Combines the AB and (mapped-back) BA verdicts as the calibration config says. */
export function combineOrders(
  ab: MethodVerdict,
  ba: MethodVerdict,
  calibration: Calibration,
): MethodVerdict & { flip: boolean } {
  const votes = [
    ...ab.votes.map((v) => ({ ...v, order: 'AB' as const })),
    ...ba.votes.map((v) => ({ ...v, order: 'BA' as const })),
  ];
  const details: Record<string, unknown> = {
    orders: { AB: ab.details ?? {}, BA: ba.details ?? {} },
    combine: calibration.combine,
  };
  const forced = ab.forceTie ?? ba.forceTie;
  if (forced !== undefined) details.tieBecause = forced;
  // Why halve on a flip: an outcome that depends on the order is weak evidence whatever its margin.
  const confidenceOf = (flip: boolean, base = (ab.confidence + ba.confidence) / 2) =>
    forced !== undefined ? 0 : base * (flip ? 0.5 : 1);
  const finish = (
    v: Omit<MethodVerdict, 'votes' | 'confidence'> & { base?: number },
    flip: boolean,
  ): MethodVerdict & { flip: boolean } => ({
    ...(v.scores ? { scores: v.scores } : {}),
    winner: forced !== undefined ? 'tie' : (v.winner ?? 'tie'),
    votes,
    confidence: confidenceOf(flip, v.base),
    details: { ...details, ...v.details },
    flip,
    ...(forced !== undefined ? { forceTie: forced } : {}),
  });

  const rule = calibration.combine;
  if (rule === 'per-agent-majority') {
    const perAgent = perAgentMajority(votes, ab, ba);
    if (perAgent) {
      return finish(
        {
          winner: perAgent.winner,
          scores: perAgent.scores,
          base: perAgent.margin,
          details: { combinedBy: 'per-agent-majority' },
        },
        ab.winner !== ba.winner,
      );
    }
  } else if (rule !== 'agree-or-tie') {
    const scores = combinedScores(rule, ab, ba, votes);
    if (scores) {
      // The flip is judged by the same rule that picks the winner: each order's score winner.
      const flip =
        ab.scores && ba.scores
          ? winnerOf(ab.scores.a, ab.scores.b) !== winnerOf(ba.scores.a, ba.scores.b)
          : ab.winner !== ba.winner;
      return finish({ winner: winnerOf(scores.a, scores.b), scores, details: { combinedBy: rule } }, flip);
    }
  }
  // An order without the scores the rule needs cannot be combined by it: say so rather than switch silently.
  const flip = ab.winner !== ba.winner;
  return finish(
    {
      winner: flip ? 'tie' : (ab.winner ?? 'tie'),
      details: { combinedBy: rule === 'agree-or-tie' ? 'agree-or-tie' : 'agree-or-tie (an order had no scores)' },
    },
    flip,
  );
}
