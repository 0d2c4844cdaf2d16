/**
 * A scripted reply every reader of the presets takes, so a run goes on to its end; its text names the call
 * and holds nothing a prompt could be mistaken for (the prompt tests compare what is sent).
 */
import type { LlmCallRequest } from '../../src/engine/call.js';

/** A reply `r`'s parser reads (scores inside every preset's scale). */
export function readableReply(r: LlmCallRequest): string {
  switch (r.parser.type) {
    case 'chateval-scores':
      return `FINAL ${r.id}\nThe score of Assistant 1: 7\nThe score of Assistant 2: 5`;
    case 'last-char':
    case 'labelled-score':
      return `FINAL ${r.id}\nScore: 2`;
    case 'fastchat-verdict':
      return '[[A]]';
    case 'faireval-scores':
      return 'Evaluation evidence: E\nScore of the Assistant 1: 7\nScore of the Assistant 2: 5';
    case 'geval-score':
    case 'leading-number':
      return '3';
    case 'debate-score':
      return `REPLY ${r.id} 3`;
    case 'bandi-tuple':
    case 'score-tuple':
      return `REPLY ${r.id} (1, 0)`;
    default:
      return `REPLY ${r.id}`;
  }
}
