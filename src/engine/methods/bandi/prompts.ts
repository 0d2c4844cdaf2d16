/**
 * @module
 * Bandi et al., "Adversarial Multi-Agent Evaluation of LLMs through Iterative Debates": the paper's data,
 * the `promptSource: 'paper'` reading of MORE and SAMRE (the code's prompts are in `code-prompts.ts`).
 *
 * - Appendix E: every agent prompt, transcribed verbatim with the paper's bare placeholder names
 *   (`question`, `answer1`, ...) written as `{{question}}`, `{{answer1}}`, ...;
 * - Appendix C.2: the judge's six scoring criteria, each scored 1-20 (the final tuple sums them);
 * - Appendix C.3: the five juror backgrounds;
 * - the juror vote prompt, which the paper does not print (§3.2 only says jurors answer with a binary
 *   tuple); ours follows the public code of the paper's implementation.
 *
 * Which prompt serves which architecture: the Appendix E headings put the group prompts ("Defend Answer",
 * "Aggregate Defense") under SAMRE and the feedback-driven single advocate under MORE, but their content
 * says the opposite: MORE (§3.1, Alg. 1) is the one with several advocates per answer whose defences are
 * consolidated into one (Appendix C.1, `D_i`), and SAMRE (§3.2, Alg. 2) is the one with rounds, judge
 * feedback and an opponent's last argument. The public code uses them that way too, and so do we.
 */

// ---------------------------------------------------------------------------------------------------
// Appendix C: criteria, scales, jurors
// ---------------------------------------------------------------------------------------------------

/** The judge's six scoring criteria (Appendix C.2), each scored on {@link CRITERION_SCALE}. */
export const BANDI_CRITERIA = [
  'Relevance to the question',
  'Accuracy of information and use of credible sources',
  'Depth of analysis and completeness of argument',
  'Clarity of expression and logical flow',
  'Strength of reasoning and factual support',
  'Effectiveness in addressing opponent’s points',
] as const;

/** Scale of one criterion, inclusive (Appendix C.2: 1-20). */
export const CRITERION_SCALE = { min: 1, max: 20 } as const;

/**
 * Accepted range of each number in the judge's final tuple, inclusive. §3.1 states the total as "a tuple
 * ranging from 1-120" (six criteria × 20); we accept what it states rather than the stricter 6-120.
 */
export const JUDGE_TUPLE_SCALE = { min: 1, max: 120 } as const;

/** Largest possible gap between the two totals: six criteria × (20 − 1) = 114. Normalises confidence. */
export const MAX_SCORE_GAP = BANDI_CRITERIA.length * (CRITERION_SCALE.max - CRITERION_SCALE.min);

/** The five juror backgrounds of Appendix C.3, in the paper's order; juror `i` gets background `i mod 5`. */
export const BANDI_JUROR_BACKGROUNDS = [
  'A retired professor of ethics',
  'A young environmental activist',
  'A middle-aged business owner',
  'A social worker specializing in community development',
  'A technology entrepreneur with a background in AI',
] as const;

// ---------------------------------------------------------------------------------------------------
// Appendix E prompts
// ---------------------------------------------------------------------------------------------------

/**
 * E.1.1 "Judge Prompt": the per-round judge of SAMRE. One call returns the six criterion scores, feedback
 * for both advocates and the final tuple, i.e. Alg. 2's `s1, s2, F ← f_J(J, a1, a2)` in one reply.
 */
export const JUDGE_ROUND_PROMPT = `You’re a critical, impartial judge in a high-stakes debate on: "{{question}}".
Answer 1: "{{answer1}}". Answer 2: "{{answer2}}".
Your goal is to provide detailed, constructive feedback that will push advocates to significantly improve their arguments.
Current round: {{current_round}}
Max rounds: {{max_rounds}}
Previous scores: {{previous_scores}}

Defense for 1st answer: {{defense1}}
Defense for 2nd answer: {{defense2}}

Analyze each argument meticulously. Be thorough and unbiased in your assessment of:
1. Relevance to the question
2. Accuracy of information and use of credible sources
3. Depth of analysis and completeness of argument
4. Clarity of expression and logical flow
5. Strength of reasoning and factual support
6. Effectiveness in addressing opponent’s points

For each criterion, provide a score on a scale of 1-20 and detailed justification.
Scores should be given as [Answer1_score, Answer2_score] for each criterion.

Your comprehensive feedback for each advocate (50 words each):
Feedback for Advocate 1:
Feedback for Advocate 2:

Sum up the scores and return the final score tuple (score1, score2). Example: (95, 87)
Your detailed scores and final tally:`;

/** Placeholders {@link JUDGE_ROUND_PROMPT} may use. */
export const JUDGE_ROUND_VARS = [
  'question',
  'answer1',
  'answer2',
  'current_round',
  'max_rounds',
  'previous_scores',
  'defense1',
  'defense2',
] as const;

/** E.1.2 "Advocate Prompts": SAMRE's single advocate per answer, seeing the last feedback and rebuttal. */
export const FIERCE_ADVOCATE_PROMPT = `You’re a fierce advocate defending this answer: {{answer}} to the question: {{question}}. Your opponent defends: {{opponent_answer}}. Convince the audience your argument is superior by addressing these criteria:
1. Relevance
2. Accuracy
3. Depth
4. Clarity
5. Logic and Factuality

Be assertive and don’t hold back! Use rhetoric and persuasion to win over the audience but be respectful.
Latest feedback: {{feedback}}
Opponent’s last argument: {{opponent_argument}}

Your fierce defense (100 words max):`;

/** Placeholders {@link FIERCE_ADVOCATE_PROMPT} may use. */
export const FIERCE_ADVOCATE_VARS = ['question', 'answer', 'opponent_answer', 'feedback', 'opponent_argument'] as const;

/**
 * E.1.3 "Summarizer Prompt". Kept as data for completeness; neither method calls it (the public code
 * summarises each SAMRE message for the agents' memories, which we replace by the full messages).
 */
export const SUMMARIZER_PROMPT = `Summarize the following content in 50 words or less, if there are any scores tuples, return them, it’s important! Start summarization directly, no introductory sentences like here’s your summary. In your summarization, only focus on the last scores, no partial ones. This is important: return the tuple of scores. These are the key points to summarize:{{content}}`;

/** E.2.1 "Defend Answer Prompt": one of MORE's k advocates of a group (`advocate_id` is 1-based). */
export const GROUP_ADVOCATE_PROMPT = `You’re an eloquent advocate (Advocate {{advocate_id}}) in a group defending this answer: {{answer}} to the question: {{question}}. Your opponent group defends: {{opponent_answer}}. Collaborate with your fellow advocates to convince the audience your argument is better. Use the latest feedback, your opponent’s last argument, and your team’s previous arguments to improve your case.
Latest feedback: {{feedback}}
Opponent’s last argument: {{opponent_argument}}
Your team’s previous arguments: {{team_arguments}}
Respond in under 80 words.
Your defense:`;

/** Placeholders {@link GROUP_ADVOCATE_PROMPT} may use. */
export const GROUP_ADVOCATE_VARS = [
  'question',
  'answer',
  'opponent_answer',
  'advocate_id',
  'feedback',
  'opponent_argument',
  'team_arguments',
] as const;

/** E.2.2 "Aggregate Defense Prompt": MORE's per-answer aggregator (`D_i` of Appendix C.1). */
export const AGGREGATE_PROMPT = `You are an expert debate strategist. Your task is to aggregate and improve upon the following defenses for the answer: {{answer}} to the question: {{question}}. The opponent’s answer is: {{opponent_answer}}.
Individual defenses: {{defenses}}
Latest feedback from the judge: {{feedback}}
Analyze each defense critically. Identify the strongest points, address any weaknesses, and combine the best arguments into a cohesive, powerful defense. Aim to create a defense that is stronger and more comprehensive than any individual argument.
Provide your aggregated and improved defense in under 150 words:`;

/** Placeholders {@link AGGREGATE_PROMPT} may use. */
export const AGGREGATE_VARS = ['question', 'answer', 'opponent_answer', 'defenses', 'feedback'] as const;

/**
 * E.2.3 "Judge Answer Prompt" (feedback only, no scores). Kept as data; SAMRE uses E.1.1, which gives
 * feedback and scores in one call, and MORE has no round that could use feedback.
 */
export const JUDGE_FEEDBACK_PROMPT = `You’re a fair, impartial judge in a debate on: "{{question}}". Answer 1: "{{answer1}}". Answer 2: "{{answer2}}". Your goal is to provide feedback that will help advocate groups improve and differentiate their arguments more clearly.
Current round: {{current_round}}
Total rounds: {{total_rounds}}
Previous scores: {{previous_scores}}
Defense for 1st answer: {{defense1}}
Defense for 2nd answer: {{defense2}}
Provide specific, constructive feedback to help each advocate group strengthen their unique position. Encourage them to address weaknesses and highlight distinctions. Aim for your feedback to lead to more divergent scores in future rounds.
Give your feedback in under 50 words:`;

/** E.2.4 "Score Answer Prompt": MORE's judge, scoring the two aggregated defences once. */
export const JUDGE_SCORE_PROMPT = `You’re a critical, impartial judge in a high-stakes debate on: "{{question}}". Answer 1: "{{answer1}}". Answer 2: "{{answer2}}". Your goal is to provide detailed, constructive feedback that will push advocates to significantly improve their arguments.
Total rounds: {{total_rounds}}
Previous scores: {{previous_scores}}
Defense for 1st answer: {{defense1}}
Defense for 2nd answer: {{defense2}}
Analyze each argument meticulously. Be thorough and unbiased in your assessment of:
1. Relevance to the question
2. Accuracy of information and use of credible sources
3. Depth of analysis and completeness of argument
4. Clarity of expression and logical flow
5. Strength of reasoning and factual support
6. Effectiveness in addressing opponent’s points
For each criterion, provide a score on a scale of 1-20 and detailed justification. Scores should be given as [Answer1_score, Answer2_score] for each criterion.
Your comprehensive feedback for each advocate (50 words each):
Feedback for Advocate 1:
Feedback for Advocate 2:
Sum up the scores and return the final score tuple (score1, score2). Example: (95, 87)
Your detailed scores and final tally:`;

/** Placeholders {@link JUDGE_SCORE_PROMPT} may use. */
export const JUDGE_SCORE_VARS = [
  'question',
  'answer1',
  'answer2',
  'total_rounds',
  'previous_scores',
  'defense1',
  'defense2',
] as const;

/** E.3 "Baseline Model Prompt" (Alg. 3, the single-judge baseline of Table 1). Data only here. */
export const BASELINE_PROMPT = `You are a fair, impartial judge scoring a debate on the following question: {{question}}.
Answer 1: {{answer1}}
Answer 2: {{answer2}}
Score each answer on a scale of 1-20 for each of the following criteria:
1. Relevance to the question
2. Accuracy of information and use of credible sources
3. Depth of analysis and completeness of argument
4. Clarity of expression and logical flow
5. Strength of reasoning and factual support
6. Effectiveness in addressing opponent’s points
Provide scores as [Answer1_score, Answer2_score] for each criterion in a list format, then sum for final scores. Please keep an eye on the slightest difference that should make a difference in the scoring. Don’t overthink!
Relevance:
Accuracy:
Depth:
Clarity:
Logic and Factuality:
Addressing opponent’s points:
Final Scores (sum of above) as a tuple (example: (18, 9)):
Explain your scoring, focusing on why one answer is better than the other based on the criteria above. Keep your explanation concise but informative.
Finally, return the final score tuple (score1, score2) as a tuple (in parentheses). Example: (18, 9)
Your scores and explanation:`;

/**
 * The juror's vote prompt. Not printed in the paper; taken from the public code of its implementation.
 * `context` is the debate transcript (`Advocate1: ...`, `Advocate2: ...`, `Judge: ...` per round).
 */
export const JUROR_PROMPT = `As a jury member with the identity of {{identity}}, you are observing a debate on the question: "{{question}}"

{{context}}
Based on the arguments presented and taking into account the judge's evaluation (but not being overly influenced by it), which advocate do you think presented a more convincing case? Explain your reasoning briefly and conclude with your vote.

Your response should be in the format:
Reasoning: [Your brief explanation]
Vote: (1, 0) if you vote for Advocate1, or (0, 1) if you vote for Advocate2`;

/** Placeholders {@link JUROR_PROMPT} may use (`answer1`/`answer2` are offered for custom templates). */
export const JUROR_VARS = ['identity', 'question', 'answer1', 'answer2', 'context'] as const;

// ---------------------------------------------------------------------------------------------------
// Criteria slots (src/engine/slots.ts)
// ---------------------------------------------------------------------------------------------------

/** Where Appendix E's prompts state their criteria, as exact text (see `CODE_CRITERIA` for the code's). */
export const PAPER_CRITERIA = {
  judge: BANDI_CRITERIA.map((c, i) => `${i + 1}. ${c}`).join('\n'),
  baselineForm: 'Relevance:\nAccuracy:\nDepth:\nClarity:\nLogic and Factuality:\nAddressing opponent’s points:',
  advocate: '1. Relevance\n2. Accuracy\n3. Depth\n4. Clarity\n5. Logic and Factuality',
} as const;
