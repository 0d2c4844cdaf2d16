/**
 * Meta-evaluation replay: stored transcripts of a whole dataset re-aggregated under another config without
 * LLM calls. The transcripts are built from the authors' recorded GPT-4 final replies (the fixture of
 * `chateval-faireval-fixture.test.ts`), so the figures are the authors' script's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMetaReplay } from '../../src/cli/meta-replay.js';
import type { StoredReply } from '../../src/engine/replay.js';
import { DATASETS_DIR, loadFairEval } from '../../src/datasets/loaders.js';
import { replayDataset } from '../../src/metrics/dataset-replay.js';

interface Fixture {
  items: { question_id: number; ab: Record<string, string>; ba: Record<string, string> }[];
}
const fixture = JSON.parse(readFileSync(`${DATASETS_DIR}faireval/chateval_gpt4_final_replies.json`, 'utf8')) as Fixture;
const items = loadFairEval();

/** What a chateval-faireval run stores per item: 8 replies, the final ones the authors'. */
const transcripts = new Map<string, StoredReply[]>(
  fixture.items.map((f) => [
    `faireval-${f.question_id}`,
    (['ab', 'ba'] as const).flatMap((o) => [
      { callId: `${o}/turn1/agent0`, model: 'gpt-4', content: 'discussion' },
      { callId: `${o}/turn1/agent1`, model: 'gpt-4', content: 'discussion' },
      {
        callId: `${o}/turn2/agent0`,
        model: 'gpt-4',
        content: `Evaluation evidence: (elided)\n${f[o]['General Public'] ?? ''}`,
      },
      { callId: `${o}/turn2/agent1`, model: 'gpt-4', content: `Evaluation evidence: (elided)\n${f[o].Critic ?? ''}` },
    ]),
  ]),
);

describe('replayDataset', () => {
  it("re-aggregates a dataset under the preset: the authors' script's figures", () => {
    const r = replayDataset(items, transcripts, { preset: 'chateval-faireval', report: { bootstrap: false } });
    expect(r.totals).toMatchObject({ items: 80, succeeded: 80, incomplete: 0, repliesApplied: 640 });
    if (r.report.kind !== 'pairwise') throw new Error('pairwise expected');
    expect(r.report.accuracy.value).toBe(0.6375);
    expect(r.report.judgeLabels.tie).toBe(5);
    expect(r.report.kappa.value).toBeCloseTo(0.4019, 4);
  });

  it('compares rules on the same replies: per-agent majority gives 16 ties', () => {
    const r = replayDataset(items, transcripts, {
      preset: 'chateval-faireval',
      config: { calibration: { enabled: true, combine: 'per-agent-majority' } },
      report: { bootstrap: false },
    });
    expect(r.report.kind === 'pairwise' && r.report.judgeLabels.tie).toBe(16);
  });

  it('lists the calls a config needs that the transcripts lack, and counts those items as missing', () => {
    const r = replayDataset(items.slice(0, 2), transcripts, {
      preset: 'chateval-simultaneous-talk',
      report: { bootstrap: false },
    });
    expect(r.totals).toMatchObject({ items: 2, succeeded: 0, incomplete: 2 });
    expect(r.items[0]?.missing).toEqual(['ab/turn1/agent2', 'ba/turn1/agent2']);
    expect(r.report).toMatchObject({ n: 2, nScored: 0, nMissing: 2 });
    const none = replayDataset(items.slice(0, 1), new Map(), {
      preset: 'chateval-faireval',
      report: { bootstrap: false },
    });
    expect(none.items[0]?.status).toBe('no-transcript');
  });

  it('rejects an invalid config before replaying anything', () => {
    expect(() => replayDataset(items, transcripts, { preset: 'chateval-faireval', config: { turns: 99 } })).toThrow(
      /turns/,
    );
  });
});

describe('npm run meta-eval -- --replay (runMetaReplay)', () => {
  it('reads a run file, replays its transcripts under another config and writes a report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tribunal-replay-'));
    const from = join(dir, 'run.json');
    const results = items.map((i) => ({
      id: i.id,
      evaluationId: 'x',
      status: 'succeeded',
      human: i.human,
      transcript: transcripts.get(i.id),
    }));
    writeFileSync(from, JSON.stringify({ options: { dataset: 'faireval', preset: 'chateval-faireval' }, results }));
    const same = runMetaReplay({ from, out: join(dir, 'same.json') });
    expect(same.replay.report.kind === 'pairwise' && same.replay.report.accuracy.value).toBe(0.6375);
    expect(same.markdown).toContain('replayed 80 · incomplete 0');
    expect(same.markdown).toContain('LLM calls 0');
    const other = runMetaReplay({
      from,
      config: { calibration: { enabled: true, combine: 'per-agent-majority' } },
      out: join(dir, 'other.json'),
    });
    const written = JSON.parse(readFileSync(other.outFile, 'utf8')) as {
      report: { judgeLabels: { tie: number } };
      preset: string;
    };
    expect(written).toMatchObject({ preset: 'chateval-faireval', report: { judgeLabels: { tie: 16 } } });
    expect(() => runMetaReplay({ from: join(dir, 'same.json') })).toThrow(/not a meta-eval run file/);
  });
});
