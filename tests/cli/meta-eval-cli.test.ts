/**
 * The meta-evaluation runner's command line and how a run ends: options (token, config overrides),
 * the exit code and the reasons printed when items failed or none could be scored, and the README's
 * example dataset shipped as a real file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../src/cli/args.js';
import { META_EVAL_CLI, metaEvalOptionsOf } from '../../src/cli/meta-eval.js';
import { submitItem } from '../../src/cli/meta-eval-client.js';
import { outcomeOfRun } from '../../src/cli/meta-eval-outcome.js';
import { loadDatasetByName } from '../../src/datasets/loaders.js';

const optionsOf = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  metaEvalOptionsOf(parseCli(META_EVAL_CLI, argv), env);

describe('meta-eval options', () => {
  it('needs a dataset and a preset', () => {
    expect(() => optionsOf(['--preset', 'p'])).toThrow(new UsageError('--dataset is required'));
    expect(() => optionsOf(['--dataset', 'faireval'])).toThrow(new UsageError('--preset is required'));
  });

  it('takes a token for --target, from --token or TRIBUNAL_TOKEN, and refuses one without a target', () => {
    expect(optionsOf(['--dataset', 'd', '--preset', 'p', '--target', 'https://t', '--token', 'tok']).token).toBe('tok');
    expect(
      optionsOf(['--dataset', 'd', '--preset', 'p', '--target', 'https://t'], { TRIBUNAL_TOKEN: 'env' }).token,
    ).toBe('env');
    expect(() => optionsOf(['--dataset', 'd', '--preset', 'p', '--token', 'tok'])).toThrow(
      '--token goes with --target',
    );
  });

  it('reads --config inline or from @file, and checks numbers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tribunal-meta-cli-'));
    writeFileSync(join(dir, 'o.json'), '{"calibration": {"combine": "agree-or-tie"}}');
    expect(optionsOf(['--dataset', 'd', '--preset', 'p', '--config', '{"turns": 3}']).config).toEqual({ turns: 3 });
    expect(optionsOf(['--dataset', 'd', '--preset', 'p', '--config', `@${join(dir, 'o.json')}`]).config).toEqual({
      calibration: { combine: 'agree-or-tie' },
    });
    expect(() => optionsOf(['--dataset', 'd', '--preset', 'p', '--config', '{bad'])).toThrow(
      /^--config: not valid JSON/,
    );
    expect(() => optionsOf(['--dataset', 'd', '--preset', 'p', '--limit', '0'])).toThrow(
      '--limit must be a whole number from 1',
    );
  });
});

const item = (id: string) => ({ id });
const scored = { nScored: 3 };

describe('how a run ends', () => {
  it('exits 0 and prints nothing more when every item succeeded and some were scored', () => {
    const results = ['a', 'b', 'c'].map((id) => ({ item: item(id), status: 'succeeded' }));
    expect(outcomeOfRun({ results, report: scored, outFile: 'r.json' })).toEqual({ exitCode: 0, lines: [] });
  });

  it('exits 1 and groups the failures by reason, most frequent first, with example items', () => {
    const results = [
      { item: item('a'), status: 'succeeded' },
      { item: item('b'), status: 'failed', error: { code: 'llm_failed', message: '5 attempts: 429 ×5' } },
      ...['c', 'd', 'e', 'f'].map((id) => ({
        item: item(id),
        status: 'failed',
        error: { code: 'runner_error', message: 'submit: HTTP 401 invalid API token' },
      })),
      { item: item('g'), status: 'cancelled' },
    ];
    expect(outcomeOfRun({ results, report: scored, outFile: 'r.json' })).toEqual({
      exitCode: 1,
      lines: [
        '6 of 7 items did not succeed:',
        '  4 × runner_error: submit: HTTP 401 invalid API token  (items c, d, e, …)',
        '  1 × llm_failed: 5 attempts: 429 ×5  (items b)',
        '  1 × ended cancelled  (items g)',
        'details per item: r.json',
      ],
    });
  });

  it('exits 1 when no item could be scored even though every evaluation succeeded', () => {
    const results = [{ item: item('a'), status: 'succeeded' }];
    expect(outcomeOfRun({ results, report: { nScored: 0 }, outFile: 'r.json' })).toEqual({
      exitCode: 1,
      lines: ['none of the 1 items could be scored (no verdict, or every reply unparsed)', 'details per item: r.json'],
    });
    expect(outcomeOfRun({ results: [], report: { nScored: 0 }, outFile: 'r.json' }).exitCode).toBe(1);
  });
});

describe("the README's own-data example", () => {
  it('ships datasets/examples/my-labels.jsonl: valid items with A, B and tie labels', () => {
    const items = loadDatasetByName('datasets/examples/my-labels.jsonl');
    expect(items.length).toBeGreaterThanOrEqual(5);
    expect(new Set(items.map((i) => i.human))).toEqual(new Set(['A', 'B', 'tie']));
    expect(items.every((i) => i.task.kind === 'pairwise')).toBe(true);
  });
});

/** A stand-in for `--target`: answers each POST /v1/evaluations as `script` says, recording the keys. */
async function fakeTarget(
  script: ('reset' | number)[],
): Promise<{ base: string; keys: string[]; close: () => Promise<void> }> {
  const keys: string[] = [];
  const server = createServer((req, res) => {
    keys.push(String(req.headers['idempotency-key']));
    const step = script[keys.length - 1] ?? 202;
    req.resume();
    req.on('end', () => {
      // A connection reset after the request arrived: the evaluation may exist, the client never hears.
      if (step === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(step, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(
        JSON.stringify(
          step === 202 ? { id: 'ev_1', status: 'queued' } : { error: { code: 'x', message: `status ${step}` } },
        ),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    keys,
    close: () =>
      new Promise((r) =>
        server.close(() => {
          r();
        }),
      ),
  };
}

describe('meta-eval submits each item once, whatever the network does', () => {
  const item = {
    id: 'item-7',
    task: { kind: 'pairwise' as const, question: 'q', answerA: 'a', answerB: 'b' },
    human: 'A' as const,
  };

  it('a lost answer (connection reset) and a 503 are sent again with the same Idempotency-Key', async () => {
    const target = await fakeTarget(['reset', 503, 202]);
    try {
      expect(await submitItem(target.base, { dataset: 'd', preset: 'p', target: target.base }, 'run-x', item)).toBe(
        'ev_1',
      );
      expect(target.keys).toEqual(['run-x:item-7', 'run-x:item-7', 'run-x:item-7']);
    } finally {
      await target.close();
    }
  });

  it("a 400 is the caller's mistake: not sent again", async () => {
    const target = await fakeTarget([400]);
    try {
      await expect(submitItem(target.base, { dataset: 'd', preset: 'p' }, 'run-x', item)).rejects.toThrow(
        'submit: HTTP 400 status 400',
      );
      expect(target.keys).toHaveLength(1);
    } finally {
      await target.close();
    }
  });

  it('--run-id names the run (to resume one) and goes with --target', () => {
    expect(optionsOf(['--dataset', 'd', '--preset', 'p', '--target', 'https://t', '--run-id', 'meta-abc']).runId).toBe(
      'meta-abc',
    );
    expect(() => optionsOf(['--dataset', 'd', '--preset', 'p', '--run-id', 'meta-abc'])).toThrow(
      '--run-id goes with --target',
    );
    expect(() =>
      optionsOf(['--dataset', 'd', '--preset', 'p', '--target', 'https://t', '--run-id', 'has space']),
    ).toThrow('visible ASCII');
  });
});
