import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { FASTCHAT_PAIR_JUDGES } from '../../src/engine/methods/single/index.js';
import { createEvaluation, readyCalls } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import type { LabelledItem } from '../../src/metrics/labelled.js';
import { LabelledItemSchema } from '../../src/metrics/labelled.js';
import {
  MT_BENCH_JOINS,
  SUMMEVAL_ASPECTS,
  TOPICAL_CHAT_ASPECTS,
  loadDatasetByName,
  loadFairEval,
  loadMtBench,
  loadSummEval,
  loadTopicalChat,
  parseLabelledItems,
} from '../../src/datasets/loaders.js';

function labelCounts(items: readonly LabelledItem[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[String(item.human)] = (counts[String(item.human)] ?? 0) + 1;
  return counts;
}

function expectUniqueIds(items: readonly LabelledItem[]): void {
  expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
}

/**
 * MT-Bench's items, loaded once for this file's three tests of them (a load reads and validates 3,355 pairs
 * twice over: ~0.35 CPU-s each); none of them changes an item.
 */
let mtBench: readonly LabelledItem[] | undefined;
const mtBenchItems = (): readonly LabelledItem[] => (mtBench ??= loadMtBench());

describe('built-in datasets', () => {
  it('FairEval: 80 pairwise items, gpt35 = A 41 / vicuna = B 25 / tie 14', () => {
    const items = loadFairEval();
    expect(items).toHaveLength(80);
    expect(labelCounts(items)).toEqual({ A: 41, B: 25, tie: 14 });
    expectUniqueIds(items);
    const first = items[0]!;
    expect(first.id).toBe('faireval-0');
    expect(first.task).toMatchObject({ kind: 'pairwise', question: 'How can I improve my time management skills?' });
  });

  it('Topical-Chat: 360 items in 60 dialogues of 6, every aspect on its scale', () => {
    for (const [aspect, scale] of Object.entries(TOPICAL_CHAT_ASPECTS)) {
      const items = loadTopicalChat(aspect as keyof typeof TOPICAL_CHAT_ASPECTS);
      expect(items).toHaveLength(360);
      expectUniqueIds(items);
      const groups = new Map<string, number>();
      for (const item of items) groups.set(item.group!, (groups.get(item.group!) ?? 0) + 1);
      expect(groups.size).toBe(60);
      expect([...groups.values()].every((n) => n === 6)).toBe(true);
      const task = items[0]!.task;
      expect(task.kind === 'pointwise' && task.aspect).toEqual({ name: aspect, scale });
      // A dialogue's 6 responses share one history.
      const sources = items.slice(0, 6).map((item) => (item.task.kind === 'pointwise' ? item.task.source : ''));
      expect(new Set(sources).size).toBe(1);
    }
  });

  it('SummEval: 1600 items in 100 articles of 16, scores 1-5', () => {
    for (const aspect of SUMMEVAL_ASPECTS) {
      const items = loadSummEval(aspect);
      expect(items).toHaveLength(1600);
      expectUniqueIds(items);
      expect(new Set(items.map((item) => item.group)).size).toBe(100);
      expect(items.every((item) => typeof item.human === 'number' && item.human >= 1 && item.human <= 5)).toBe(true);
    }
    expect(loadSummEval('coherence')[0]).toMatchObject({ id: 'summeval-A0-S0', group: 'A0', human: 1.3333333333 });
  });

  it('MT-Bench binary: 3355 pairwise items, no ties (ties were mapped to B upstream)', () => {
    const items = mtBenchItems();
    expect(items).toHaveLength(3355);
    expect(labelCounts(items)).toEqual({ A: 1293, B: 2062 });
    expectUniqueIds(items);
  });

  it("MT-Bench: every item matched to its FastChat question, with its category and, for NEED_REF_CATS, GPT-4's reference", () => {
    const items = mtBenchItems();
    const byCategory: Record<string, number> = {};
    for (const item of items) byCategory[item.group ?? '?'] = (byCategory[item.group ?? '?'] ?? 0) + 1;
    expect(byCategory).toEqual({
      roleplay: 464,
      humanities: 452,
      reasoning: 434,
      stem: 416,
      math: 412,
      extraction: 402,
      coding: 397,
      writing: 378,
    });
    const withReference = items.filter((i) => i.task.kind === 'pairwise' && i.task.reference !== undefined);
    expect(new Set(withReference.map((i) => i.group))).toEqual(new Set(['math', 'reasoning', 'coding']));
    expect(withReference).toHaveLength(412 + 434 + 397);
    // Question 101 (reasoning): its two turns as the file joins them, GPT-4's two reference turns likewise.
    const q101 = items.find(
      (i) => i.task.kind === 'pairwise' && i.task.question?.startsWith('Imagine you are participating in a race'),
    );
    expect(q101?.group).toBe('reasoning');
    const task = q101?.task.kind === 'pairwise' ? q101.task : undefined;
    expect(task?.question).toContain('Where is the person you just overtook?Then,If the "second person"');
    expect(task?.reference).toMatch(
      /^If you have just overtaken the second person, your current position is now second place\. .*Now for the other part of the question: If you have just overtaken the last person/s,
    );
    expect(MT_BENCH_JOINS).toEqual({ question: 'Then,', answer: 'Now for the other part of the question: ' });
  });

  it("MT-Bench with fastchat-pair: pair-math-v1 and the reference for NEED_REF_CATS, pair-v2 for the rest, as FastChat's gen_judgment", () => {
    const items = mtBenchItems();
    const config = resolveMethodConfig('fastchat-pair', undefined);
    const method = getMethod(config.method);
    const firstRequest = (category: string) => {
      const item = items.find((i) => i.group === category);
      if (!item) throw new Error(category);
      return readyCalls(method, createEvaluation(method, config, item.task))[0];
    };
    for (const category of ['math', 'reasoning', 'coding']) {
      const r = firstRequest(category);
      expect(r?.messages[0]).toEqual({ role: 'system', content: FASTCHAT_PAIR_JUDGES['pair-math-v1'].system });
      expect(r?.messages[1]?.content).toContain('[The Start of Reference Answer]');
    }
    for (const category of ['writing', 'roleplay', 'extraction', 'stem', 'humanities']) {
      const r = firstRequest(category);
      expect(r?.messages[0]).toEqual({ role: 'system', content: FASTCHAT_PAIR_JUDGES['pair-v2'].system });
      expect(r?.messages[1]?.content).not.toContain('Reference');
    }
  });

  it('by name, with aspect checks', () => {
    expect(loadDatasetByName('faireval')).toHaveLength(80);
    expect(loadDatasetByName('topical-chat', { aspect: 'overall' })).toHaveLength(360);
    expect(() => loadDatasetByName('summeval')).toThrow(/aspect/);
    expect(() => loadDatasetByName('topical-chat', { aspect: 'fluency' })).toThrow(/aspect/);
  });
});

describe('customer items', () => {
  const pairwise = {
    id: 'p1',
    task: { kind: 'pairwise', question: 'q', answerA: 'a', answerB: 'b' },
    human: 'tie',
  };
  const pointwise = {
    id: 'x1',
    group: 'doc1',
    task: { kind: 'pointwise', source: 's', output: 'o', aspect: { name: 'coherence', scale: { min: 1, max: 5 } } },
    human: 4.5,
  };
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-meta-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('schema: label kind must match task kind, scores inside the scale, no extra keys', () => {
    expect(LabelledItemSchema.safeParse(pairwise).success).toBe(true);
    expect(LabelledItemSchema.safeParse(pointwise).success).toBe(true);
    expect(LabelledItemSchema.safeParse({ ...pairwise, human: 1 }).success).toBe(false);
    expect(LabelledItemSchema.safeParse({ ...pointwise, human: 'A' }).success).toBe(false);
    expect(LabelledItemSchema.safeParse({ ...pointwise, human: 6 }).success).toBe(false);
    expect(LabelledItemSchema.safeParse({ ...pairwise, extra: true }).success).toBe(false);
  });

  it('reads JSONL, JSON arrays and gzipped files', () => {
    const jsonl = join(dir, 'items.jsonl');
    writeFileSync(jsonl, `${JSON.stringify(pairwise)}\n\n${JSON.stringify(pointwise)}\n`);
    const json = join(dir, 'items.json');
    writeFileSync(json, JSON.stringify([pairwise, pointwise]));
    const gz = join(dir, 'items.jsonl.gz');
    writeFileSync(gz, gzipSync(`${JSON.stringify(pairwise)}\n`));
    expect(loadDatasetByName(jsonl)).toEqual([pairwise, pointwise]);
    expect(loadDatasetByName(json)).toEqual([pairwise, pointwise]);
    expect(loadDatasetByName(gz)).toEqual([pairwise]);
  });

  it('errors name the line and reject duplicate ids', () => {
    const bad = `${JSON.stringify(pairwise)}\n${JSON.stringify({ ...pointwise, human: 9 })}\n`;
    expect(() => parseLabelledItems(bad, 'mine.jsonl')).toThrow(/mine\.jsonl:2/);
    expect(() => parseLabelledItems('{not json', 'mine.jsonl')).toThrow(/mine\.jsonl:1: invalid JSON/);
    expect(() => parseLabelledItems(JSON.stringify([pairwise, pairwise]), 'd.json')).toThrow(
      /d\.json\[1\]: duplicate id/,
    );
  });
});
