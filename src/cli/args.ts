/**
 * @module
 * The one argument parser of every CLI (`judge`, `meta-eval`, `mock-llm`, `start`, the benches), on
 * `node:util` parseArgs. Same behaviour everywhere: `--help` / `-h` prints the usage on stdout and exits
 * 0; an unknown option, a missing value, a stray argument or a bad value prints one line and the usage
 * on stderr and exits 2; any other error prints one line (no stack trace) and exits 1. A reader that went
 * away (`npm run admin -- … | head -1`: stdout or stderr closed, EPIPE) ends the CLI quietly with
 * {@link EXIT_CLOSED_PIPE}, as a Unix tool that SIGPIPE ends.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

/** Option declarations, as `node:util` parseArgs takes them. */
export type CliOptions = NonNullable<ParseArgsConfig['options']>;

/** What a CLI declares: its usage text (printed for `--help` and after a usage error) and its options. */
export interface CliSpec<O extends CliOptions> {
  /** Usage text, several lines; the first names the command. */
  usage: string;
  /** Options; `help` / `-h` is added to every CLI. */
  options: O;
}

/** Parsed option values of a {@link CliSpec}. */
export type CliValues<O extends CliOptions> = ReturnType<
  typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>
>['values'];

/** A user's mistake on the command line: one line, then the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `--help` was asked for. */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
}

/** parseArgs' messages are long; say what is wrong in a few words, naming the option. */
function shortMessage(e: Error & { code?: string }): string {
  const quoted = /'([^']+)'/.exec(e.message)?.[1] ?? '';
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted.split(' ')[0] ?? quoted}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${JSON.stringify(quoted)} (options take the form --name value)`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const option = quoted.split(' ')[0] ?? quoted;
      if (/argument missing/.test(e.message)) return `option ${option} needs a value`;
      if (/does not take an argument/.test(e.message)) return `option ${option} takes no value`;
      return e.message.split('. ')[0] ?? e.message;
    }
    default:
      return e.message.split('. ')[0] ?? e.message;
  }
}

/**
 * Parses `argv` (default: the process's arguments) against `spec`. Throws {@link HelpRequested} for
 * `--help`/`-h` (anywhere, even beside mistakes) and {@link UsageError} for anything parseArgs rejects.
 */
export function parseCli<O extends CliOptions>(
  spec: CliSpec<O>,
  argv: readonly string[] = process.argv.slice(2),
): CliValues<O> {
  const untilDashes = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  if (untilDashes.includes('--help') || untilDashes.includes('-h')) throw new HelpRequested();
  try {
    return parseArgs({ args: [...argv], options: spec.options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (e instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(shortMessage(Object.assign(e, { code })));
    }
    throw e;
  }
}

/**
 * The exit code of a CLI whose stdout or stderr was closed under it: 141 (128 + SIGPIPE's 13), what a shell
 * reports for a Unix tool a closed pipe ended (`git log | head -1` under `set -o pipefail`). Node ignores SIGPIPE
 * and sees EPIPE instead, so the CLI exits with the code itself: never 0, which would read as a finished run.
 */
export const EXIT_CLOSED_PIPE = 141;

/** Where {@link runCli} writes and how it exits; tests pass their own. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  exit: (code: number) => void;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  exit: (code) => {
    // exitCode (not exit()) lets stdout drain; a CLI whose work is done has nothing left to keep it alive.
    process.exitCode = code;
  },
};

/**
 * Parses the arguments and runs `main` with them. `main` resolves to an exit code (default 0); a CLI
 * that keeps running (a server) resolves to `undefined` and exits on its own.
 * Errors: {@link UsageError} → one line + usage, exit 2; any other → `error: <message>`, exit 1.
 */
export async function runCli<O extends CliOptions>(
  spec: CliSpec<O>,
  main: (values: CliValues<O>) => Promise<number | undefined> | number | undefined,
  argv: readonly string[] = process.argv.slice(2),
  io: CliIo = processIo,
): Promise<void> {
  if (io === processIo) {
    // `npm run x -- … | head -1`: the reader went away; stop quietly (nothing is left to say it to).
    for (const stream of [process.stdout, process.stderr]) {
      stream.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPIPE') process.exit(EXIT_CLOSED_PIPE);
        else throw e;
      });
    }
  }
  try {
    const code = await main(parseCli(spec, argv));
    if (code !== undefined) io.exit(code);
  } catch (e) {
    if (e instanceof HelpRequested) {
      io.out(`${spec.usage.trimEnd()}\n`);
      io.exit(0);
    } else if (e instanceof UsageError) {
      io.err(`${e.message}\n\n${spec.usage.trimEnd()}\n`);
      io.exit(2);
    } else {
      io.err(`error: ${describeError(e)}\n`);
      io.exit(1);
    }
  }
}

/**
 * For scripts that read their options at the top level (benches): the parsed values, or — after
 * `--help` or a mistake, reported as {@link runCli} does (usage, exit 0 / 2) — the process ends here.
 * `check` validates further (e.g. {@link choiceOption}); a {@link UsageError} it throws is reported alike.
 */
export async function parseCliOrExit<O extends CliOptions>(
  spec: CliSpec<O>,
  check: (values: CliValues<O>) => void = () => undefined,
): Promise<CliValues<O>> {
  let parsed: CliValues<O> | undefined;
  await runCli(spec, (v) => {
    check(v);
    parsed = v;
    return undefined;
  });
  if (!parsed) {
    // A write into a closed pipe reports EPIPE on the next tick: let runCli's listener see it before exiting.
    await new Promise((resolve) => setImmediate(resolve));
    process.exit();
  }
  return parsed;
}

/** One line for an error and its causes (fetch's "fetch failed" says nothing without its cause). */
export function describeError(e: unknown): string {
  const parts: string[] = [];
  let current: unknown = e;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    const message =
      current instanceof Error ? current.message : typeof current === 'string' ? current : JSON.stringify(current);
    if (message && !parts.includes(message)) parts.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
}

/** A whole number option in `[min, max]`, or `undefined` when not given. Throws {@link UsageError}. */
export function intOption(
  value: string | undefined,
  name: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * `--var K=V` options (repeatable) as the Worker variables they name, in order; none gives `{}`.
 * @throws UsageError naming the option when one is not `K=V` with a non-empty K.
 */
export function varsOption(values: readonly string[] | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const kv of values ?? []) {
    const at = kv.indexOf('=');
    if (at < 1) throw new UsageError(`--var must be K=V, got ${JSON.stringify(kv)}`);
    vars[kv.slice(0, at)] = kv.slice(at + 1);
  }
  return vars;
}

/** One of `choices`, or `undefined` when not given. Throws {@link UsageError}. */
export function choiceOption<C extends string>(
  value: string | undefined,
  name: string,
  choices: readonly C[],
): C | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as C;
}

/**
 * A JSON object given inline (`'{"turns": 3}'`), as `@file.json`, or as a plain path to a JSON file.
 * Throws {@link UsageError} naming the option when it is not readable or not a JSON object.
 */
export function jsonObjectOption(value: string | undefined, name: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  const inline = value.trimStart().startsWith('{');
  let text = value;
  if (!inline) {
    const path = value.startsWith('@') ? value.slice(1) : value;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new UsageError(`--${name}: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? describeError(e)}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--${name}: not valid JSON (${describeError(e)})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(`--${name}: expected a JSON object`);
  return parsed as Record<string, unknown>;
}

/** Runs `main` only when this module is the process's entry script (not when a test imports it). */
export function isMain(importMetaUrl: string): boolean {
  return importMetaUrl === `file://${process.argv[1] ?? ''}`;
}
