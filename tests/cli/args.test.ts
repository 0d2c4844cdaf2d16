/**
 * The one argument parser of every CLI: --help, unknown options, missing values, stray arguments and
 * bad values end the same way everywhere, without a stack trace.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/args.js';
import {
  choiceOption,
  describeError,
  intOption,
  jsonObjectOption,
  runCli,
  UsageError,
  varsOption,
} from '../../src/cli/args.js';

const spec = {
  usage: 'usage: demo --name N [--loud]\n\n  --name N   who',
  options: { name: { type: 'string' }, loud: { type: 'boolean', default: false } },
} as const;

async function run(
  argv: string[],
  main: (v: { name?: string; loud: boolean }) => Promise<number | undefined> | number | undefined = () => 0,
) {
  let out = '';
  let err = '';
  let code: number | undefined;
  const io: CliIo = { out: (t) => (out += t), err: (t) => (err += t), exit: (c) => (code = c) };
  await runCli(spec, main, argv, io);
  return { out, err, code };
}

describe('runCli', () => {
  it('prints the usage on stdout for --help and -h and exits 0, even beside a mistake', async () => {
    for (const argv of [['--help'], ['-h'], ['--bogus', '--help']]) {
      expect(await run(argv)).toEqual({ out: `${spec.usage}\n`, err: '', code: 0 });
    }
  });

  it('answers an unknown option with one line and the usage on stderr, exit 2', async () => {
    expect(await run(['--bogus'])).toEqual({ out: '', err: `unknown option --bogus\n\n${spec.usage}\n`, code: 2 });
    expect((await run(['-x'])).err.split('\n')[0]).toBe('unknown option -x');
  });

  it('names a missing value, a value given to a flag and a stray argument', async () => {
    expect((await run(['--name'])).err.split('\n')[0]).toBe('option --name needs a value');
    expect((await run(['--loud=yes'])).err.split('\n')[0]).toBe('option --loud takes no value');
    const stray = await run(['extra']);
    expect(stray.err.split('\n')[0]).toBe('unexpected argument "extra" (options take the form --name value)');
    expect(stray.code).toBe(2);
  });

  it('passes parsed values to main and exits with its code', async () => {
    let seen: unknown;
    const r = await run(['--name', 'ada', '--loud'], (v) => {
      seen = v;
      return 3;
    });
    expect(seen).toEqual({ name: 'ada', loud: true });
    expect(r).toEqual({ out: '', err: '', code: 3 });
  });

  it("turns main's UsageError into exit 2 with the usage, and any other error into one line, exit 1", async () => {
    expect(
      await run([], () => {
        throw new UsageError('--name is required');
      }),
    ).toEqual({ out: '', err: `--name is required\n\n${spec.usage}\n`, code: 2 });
    const failed = await run([], () =>
      Promise.reject(new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') })),
    );
    expect(failed).toEqual({ out: '', err: 'error: fetch failed: connect ECONNREFUSED 127.0.0.1:1\n', code: 1 });
  });

  it('leaves the exit to a main that keeps running (returns undefined)', async () => {
    expect((await run([], () => undefined)).code).toBeUndefined();
  });
});

describe('option values', () => {
  it('reads whole numbers within bounds, or says what was expected', () => {
    expect(intOption(undefined, 'limit', 1)).toBeUndefined();
    expect(intOption('8', 'limit', 1)).toBe(8);
    for (const bad of ['0', '1.5', 'x', '', '70000']) {
      expect(() => intOption(bad, 'port', 1, 65_535)).toThrow(UsageError);
    }
    expect(() => intOption('x', 'port', 1, 65_535)).toThrow('--port must be a whole number from 1 to 65535, got "x"');
  });

  it('reads --var K=V as Worker variables (a value may hold "="), or names the option', () => {
    expect(varsOption(undefined)).toEqual({});
    expect(varsOption(['A=1', 'B=x=y', 'C='])).toEqual({ A: '1', B: 'x=y', C: '' });
    for (const bad of ['A', '=1', '']) expect(() => varsOption([bad])).toThrow(UsageError);
    expect(() => varsOption(['A'])).toThrow('--var must be K=V, got "A"');
  });

  it('accepts one of the choices only', () => {
    expect(choiceOption('judge', 'mode', ['judge', 'scripted'])).toBe('judge');
    expect(() => choiceOption('other', 'mode', ['judge', 'scripted'])).toThrow(
      '--mode must be one of judge, scripted, got "other"',
    );
  });

  it('reads a JSON object inline, from @file or from a path, and names the option when it cannot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tribunal-args-'));
    const file = join(dir, 'c.json');
    writeFileSync(file, '{"turns": 3}');
    expect(jsonObjectOption('{"turns": 3}', 'config')).toEqual({ turns: 3 });
    expect(jsonObjectOption(`@${file}`, 'config')).toEqual({ turns: 3 });
    expect(jsonObjectOption(file, 'config')).toEqual({ turns: 3 });
    expect(() => jsonObjectOption('{turns: 3}', 'config')).toThrow(/^--config: not valid JSON/);
    expect(() => jsonObjectOption(`@${join(dir, 'none.json')}`, 'config')).toThrow(
      `--config: cannot read ${join(dir, 'none.json')}: ENOENT`,
    );
    writeFileSync(file, '[1]');
    expect(() => jsonObjectOption(`@${file}`, 'config')).toThrow('--config: expected a JSON object');
  });

  it('describes an error with its causes on one line', () => {
    expect(describeError(new Error('a', { cause: new Error('b', { cause: 'c' }) }))).toBe('a: b: c');
  });
});
