/**
 * @module
 * Bandi et al.'s prompts as their public code sends them: abirharrasse/LLM-Judging-Architectures
 * @ 2c4e937822263a0a03f561ba66410c2f75f87d15, `utils/` (MIT). Python `str.format` / f-string slots `{x}` are
 * written `{{x}}`; everything else is verbatim, including the leading newline and the source indentation the
 * triple-quoted strings carry into the prompt. The paper's Appendix E transcriptions are in `prompts.ts`.
 * {@link CODE_CRITERIA} holds where each prompt states its criteria (src/engine/slots.ts).
 */

/** MORE's group advocate (`MORE_architecture.py` `DefendAnswer.PROMPT_TEMPLATE`). */
export const CODE_MORE_DEFEND =
  "\n    You're an eloquent advocate (Advocate {{advocate_id}}) in a group defending this answer: {{answer}} to the question: {{question}}. Your opponent\n    group defends: {{opponent_answer}}. Collaborate with your fellow advocates to convince the audience your argument is better.\n    Use the latest feedback, your opponent's last argument, and your team's previous arguments to improve your case.\n    Latest feedback: {{feedback}}\n    Opponent's last argument: {{opponent_argument}}\n    Your team's previous arguments: {{team_arguments}}\n    Respond in under 80 words.\n    Your defense:\n    ";

/** MORE's aggregator (`MORE_architecture.py` `AggregateDefense.PROMPT_TEMPLATE`). */
export const CODE_MORE_AGGREGATE =
  "\n    You are an expert debate strategist. Your task is to aggregate and improve upon the following defenses for the answer: {{answer}} to the question: {{question}}.\n    The opponent's answer is: {{opponent_answer}}\n\n    Individual defenses:\n    {{defenses}}\n\n    Latest feedback from the judge: {{feedback}}\n\n    Analyze each defense critically. Identify the strongest points, address any weaknesses, and combine the best arguments into a cohesive, powerful defense.\n    Aim to create a defense that is stronger and more comprehensive than any individual argument.\n\n    Provide your aggregated and improved defense in under 150 words:\n    ";

/** MORE's feedback judge (`MORE_architecture.py` `JudgeAnswer.PROMPT_TEMPLATE`); its reply only feeds a later round. */
export const CODE_MORE_JUDGE_FEEDBACK =
  '\n    You\'re a fair, impartial judge in a debate on: "{{question}}". Answer 1: "{{answer1}}". Answer 2: "{{answer2}}".\n    Your goal is to provide feedback that will help advocate groups improve and differentiate their arguments more clearly.\n    Current round: {{current_round}}\n    Total rounds: {{total_rounds}}\n    Previous scores: {{previous_scores}}\n\n    Defense for 1st answer: {{defense1}}\n    Defense for 2nd answer: {{defense2}}\n\n    Provide specific, constructive feedback to help each advocate group strengthen their unique position.\n    Encourage them to address weaknesses and highlight distinctions.\n    Aim for your feedback to lead to more divergent scores in future rounds.\n\n    Give your feedback in under 50 words:\n    ';

/** MORE's scorer (`MORE_architecture.py` `ScoreAnswer.PROMPT_TEMPLATE`). */
export const CODE_MORE_SCORE =
  '\n    You\'re a critical, impartial judge in a high-stakes debate on: "{{question}}".\n    Answer 1: "{{answer1}}". Answer 2: "{{answer2}}".\n    Your goal is to provide detailed, constructive feedback that will push advocates to significantly improve their arguments.\n    Total rounds: {{total_rounds}}\n    Previous scores: {{previous_scores}}\n\n    Defense for 1st answer: {{defense1}}\n    Defense for 2nd answer: {{defense2}}\n\n    Analyze each argument meticulously. Be thorough and unbiased in your assessment of:\n    1. Relevance to the question\n    2. Accuracy of information and use of credible sources\n    3. Depth of analysis and completeness of argument\n    4. Clarity of expression and logical flow\n    5. Strength of reasoning and factual support\n    6. Effectiveness in addressing opponent\'s points\n\n    For each criterion, provide a score on a scale of 1-20 and detailed justification.\n    Scores should be given as [Answer1_score, Answer2_score] for each criterion.\n\n    Your comprehensive feedback for each advocate (50 words each):\n    Feedback for Advocate 1:\n    Feedback for Advocate 2:\n\n    Sum up the scores and return the final score tuple (score1, score2). Example: (95, 87)\n    Your detailed scores and final tally:\n    ';

/** SAMRE's advocate (`SAMRE_architecture.py` `DefendAnswer.PROMPT_TEMPLATE`). */
export const CODE_SAMRE_DEFEND =
  "\n    You're a fierce advocate defending this answer: {{answer}} to the question: {{question}}. Your opponent\n    defends: {{opponent_answer}}. Convince the audience your argument is superior by addressing these criteria:\n\n    1. Relevance: Show how your answer directly addresses the question and why your opponent's doesn't.\n    2. Accuracy: Highlight the precision of your answer and point out any inaccuracies in your opponent's.\n    3. Depth: Demonstrate the profound insights in your answer and expose the superficiality of your opponent's.\n    4. Clarity: Emphasize the clarity of your answer and criticize any vagueness in your opponent's.\n    5. Logic and Factuality: Stress the solid logic and facts in your answer while identifying logical fallacies or factual errors in your opponent's.\n\n    Be assertive and don't hold back! Use rhetoric and persuasion to win over the audience but be respectful.\n    Latest feedback: {{feedback}}\n    Opponent's last argument: {{opponent_argument}}\n\n    Your fierce defense (100 words max):\n    ";

/** SAMRE's judge (`SAMRE_architecture.py` `EnhancedJudgeAnswer.PROMPT_TEMPLATE`). */
export const CODE_SAMRE_JUDGE =
  '\n    You\'re a critical, impartial judge in a high-stakes debate on: "{{question}}".\n    Answer 1: "{{answer1}}". Answer 2: "{{answer2}}".\n    Your goal is to provide detailed, constructive feedback that will push advocates to significantly improve their arguments.\n    Current round: {{current_round}}\n    Max rounds: {{max_rounds}}\n    Previous scores: {{previous_scores}}\n\n    Defense for 1st answer: {{defense1}}\n    Defense for 2nd answer: {{defense2}}\n\n    Analyze each argument meticulously. Be thorough and unbiased in your assessment of:\n    1. Relevance to the question\n    2. Accuracy of information and use of credible sources\n    3. Depth of analysis and completeness of argument\n    4. Clarity of expression and logical flow\n    5. Strength of reasoning and factual support\n    6. Effectiveness in addressing opponent\'s points\n\n    For each criterion, provide a score on a scale of 1-20 and detailed justification.\n    Scores should be given as [Answer1_score, Answer2_score] for each criterion.\n\n    Your comprehensive feedback for each advocate (50 words each):\n    Feedback for Advocate 1:\n    Feedback for Advocate 2:\n\n    Sum up the scores and return the final score tuple (score1, score2). Example: (95, 87)\n    Your detailed scores and final tally:\n    ';

/** SAMRE's summarizer of every advocate message (`SAMRE_architecture.py` `Summarizer.run`, an f-string). */
export const CODE_SAMRE_SUMMARIZER =
  "Summarize the following content in 50 words or less, if there are any scores tuples, return them, it's important! Start summarization directly,\n         no introductory sentences like here's your summary. In your summarization, only focus on the last scores, no partial ones. This is important: return the tuple of scores. These are the key points\n         to summarize:\n\n{{content}}";

/** SAMRE's juror (`SAMRE_architecture.py` `VoteAction.run`, an f-string); `{{context}}` is the debate as `role: content` lines. */
export const CODE_SAMRE_VOTE =
  "As a jury member with the identity of {{identity}}, you are observing a debate on the question: {{question}}\n        This is the debate:\n        {{context}}\n        \n        Based on the arguments presented and taking into account the judge's evaluation (but not being overly influenced by it),\n        which advocate do you think presented a more convincing case? Explain your reasoning briefly and conclude with your vote.\n        \n        Your response should be in the format:\n        Reasoning: [Your brief explanation]\n        Vote: (1, 0) if you vote for Advocate1, or (0, 1) if you vote for Advocate2\n        ";

/** The single-judge baseline (`basemodel.py` `judge_answers`, an f-string; sent with temperature 0). */
export const CODE_BASELINE =
  "\n  You are a fair, impartial judge scoring a debate on the following question: {{question}}.\n\n  Answer 1: {{answer1}}\n  Answer 2: {{answer2}}\n\n  Score each answer on a scale of 1-20 for each of the following criteria:\n    1. Relevance to the question\n    2. Accuracy of information and use of credible sources\n    3. Depth of analysis and completeness of argument\n    4. Clarity of expression and logical flow\n    5. Strength of reasoning and factual support\n    6. Effectiveness in addressing opponent's points\n  Provide scores as [Answer1_score, Answer2_score] for each criterion in a list format, then sum for final scores. Please keep an eye on the slightest difference that should make a difference in the scoring. Don't overthink!\n\n  Relevance:\n  Accuracy:\n  Depth:\n  Clarity:\n  Logic and Factuality:\n  Addressing opponent's points:\n  Final Scores (sum of above) as a tuple (example: (18, 9)):\n\n  Explain your scoring, focusing on why one answer is better than the other based on the criteria above. Keep your explanation concise but informative.\n\n  Finally, return  the final score tuple (score1, score2) as a tuple (in parentheses). Example: (18, 9)\n\n  Your scores and explanation:\n  ";

/** The judges' six criteria as the code's prompts list them (4-space indentation, ASCII apostrophe). */
const SIX = [
  '1. Relevance to the question',
  '2. Accuracy of information and use of credible sources',
  '3. Depth of analysis and completeness of argument',
  '4. Clarity of expression and logical flow',
  '5. Strength of reasoning and factual support',
  "6. Effectiveness in addressing opponent's points",
];

/**
 * Where the code's prompts state their criteria, as exact text: the judges' six criteria (MORE's scorer,
 * SAMRE's judge, the baseline), SAMRE's advocate's five, and the baseline's per-criterion answer lines, which
 * name the six again. A rubric's criteria replace the list; the baseline's answer lines become one
 * "Scores per criterion:" line (its "Final Scores (sum of above)" still follows).
 */
export const CODE_CRITERIA = {
  judge: SIX.join('\n    '),
  baseline: SIX.join('\n    '),
  baselineForm:
    "Relevance:\n  Accuracy:\n  Depth:\n  Clarity:\n  Logic and Factuality:\n  Addressing opponent's points:",
  advocate: [
    "1. Relevance: Show how your answer directly addresses the question and why your opponent's doesn't.",
    "2. Accuracy: Highlight the precision of your answer and point out any inaccuracies in your opponent's.",
    "3. Depth: Demonstrate the profound insights in your answer and expose the superficiality of your opponent's.",
    "4. Clarity: Emphasize the clarity of your answer and criticize any vagueness in your opponent's.",
    "5. Logic and Factuality: Stress the solid logic and facts in your answer while identifying logical fallacies or factual errors in your opponent's.",
  ].join('\n    '),
} as const;
