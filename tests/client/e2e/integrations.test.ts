/**
 * The integration examples as users run them, against a local Tribunal (src/cli/local-stack.ts, the
 * mock LLM): every block tagged `example=…` in docs/integrations.md and src/client/README.md is taken
 * verbatim. TypeScript examples are type-checked as a consumer project that installed Tribunal as the
 * README says (the tarball `npm pack` makes from this checkout, installed by npm offline; the
 * `tribunal/client` export from its `dist/client`, strict tsc with Node's types only, Tribunal's declarations
 * checked too), then run with node; curl examples run in bash; the promptfoo config runs a
 * real `promptfoo eval` (0.121.20, installed apart in bench/peers) through the provider file.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../../src/cli/local-stack.js';
import { startLocalStack } from '../../../src/cli/local-stack.js';
import { REPO_ROOT } from '../../../src/cli/worker-bundle.js';
import { contractFetch } from '../../support/contract-fetch.js';
import type { ProcessResult } from '../../support/run-process.js';
import { runProcess, stopLeftovers } from '../../support/run-process.js';
import { seededState } from '../../support/seed-state.js';
import { BASH_FLAGS, shellEnv } from '../../support/shell.js';
import { preparedWorker } from '../../support/worker-ready.js';

/** A tagged example: ```<lang> example=<name>. */
interface Example {
  lang: string;
  code: string;
}

function examplesIn(file: string): Map<string, Example> {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const out = new Map<string, Example>();
  for (const m of text.matchAll(/```(\w+) example=([\w-]+)\n([\s\S]*?)```/g))
    out.set(m[2] ?? '', { lang: m[1] ?? '', code: m[3] ?? '' });
  return out;
}

function example(examples: Map<string, Example>, name: string): Example {
  const e = examples.get(name);
  if (!e) throw new Error(`no example "${name}"`);
  return e;
}

function run(
  file: string,
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<ProcessResult> {
  // Waited on to its end (no wall-clock kill: tests/support/run-process.ts).
  return runProcess(file, args, { cwd: opts.cwd ?? REPO_ROOT, env: shellEnv({ ...process.env, ...opts.env }) });
}

const PROMPTFOO = join(REPO_ROOT, 'bench', 'peers', 'node_modules', '.bin', 'promptfoo');
/** CI sets this, so a missing bench/peers install fails there instead of skipping. */
const PEERS_REQUIRED = process.env.TRIBUNAL_REQUIRE_PEERS === '1';

const docs = examplesIn('docs/integrations.md');
const readme = examplesIn('src/client/README.md');
const dir = mkdtempSync(join(tmpdir(), 'tribunal-integrations-'));
/** A consumer project: its own package.json and tsconfig, Tribunal and the SDK installed as links. */
const consumer = join(dir, 'consumer');
let stack: LocalStack | undefined;
let env: Record<string, string> = {};

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
}

let lockRead: { packages: Record<string, LockEntry> } | undefined;

/** This checkout's package-lock.json, read once (the consumer's lockfile and the closure check both use it). */
function checkoutLock(): { packages: Record<string, LockEntry> } {
  lockRead ??= JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  return lockRead;
}

/** `names` and everything they depend on, as this checkout's package-lock.json resolves them: entries by lock key. */
function lockClosure(names: readonly string[]): Record<string, LockEntry> {
  const lock = checkoutLock();
  const packages: Record<string, LockEntry> = {};
  const queue = [...names];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const key = `node_modules/${name}`;
    if (key in packages) continue;
    const entry = lock.packages[key];
    if (!entry) throw new Error(`package-lock.json has no top-level ${name}`);
    packages[key] = entry;
    queue.push(...Object.keys(entry.dependencies ?? {}));
  }
  return packages;
}

/**
 * A consumer's lockfile (v3) with Tribunal from `tarball` (a path relative to the consumer) and its
 * production dependencies resolved exactly as this checkout's package-lock.json resolves them.
 */
function consumerLock(tarballPath: string, tarball: string): object {
  const root = checkoutLock().packages[''] ?? {};
  const packages: Record<string, object> = lockClosure(Object.keys(root.dependencies ?? {}));
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarballPath)).digest('base64')}`;
  packages['node_modules/tribunal'] = {
    version: root.version,
    resolved: `file:${tarball}`,
    integrity,
    dependencies: root.dependencies,
  };
  packages[''] = { name: 'consumer', dependencies: { tribunal: `file:${tarball}` } };
  return { name: 'consumer', lockfileVersion: 3, requires: true, packages };
}

/**
 * The packages the shipped files import by name (`zod`, `@scope/pkg`; not relative paths nor `node:`
 * built-ins): every `from '…'`, `import '…'` and `import("…")` of the JavaScript and declarations, comments aside.
 */
function packagesImported(root: string, files: readonly string[]): string[] {
  const names = new Set<string>();
  for (const file of files.filter((f) => /\.(js|d\.ts)$/.test(f))) {
    const code = readFileSync(join(root, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    // A statement's `from` (its names hold no quote), a bare `import '…'`, a declaration's `import("…")`.
    const specifiers =
      /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
    for (const m of code.matchAll(specifiers)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? '';
      if (spec.startsWith('.') || spec.startsWith('node:')) continue;
      const [first = '', second = ''] = spec.split('/');
      names.add(first.startsWith('@') ? `${first}/${second}` : first);
    }
  }
  return [...names].sort();
}

/** The packages installed at the top of `nodeModules` (`name`, `@scope/name`). */
function installedPackages(nodeModules: string): string[] {
  return readdirSync(nodeModules)
    .filter((d) => !d.startsWith('.'))
    .flatMap((d) => (d.startsWith('@') ? readdirSync(join(nodeModules, d)).map((n) => `${d}/${n}`) : [d]))
    .sort();
}

function link(name: string, target: string): void {
  const path = join(consumer, 'node_modules', name);
  mkdirSync(join(path, '..'), { recursive: true });
  symlinkSync(target, path, 'dir');
}

beforeAll(async () => {
  // The stack starts while the client builds.
  const starting = startLocalStack({
    port: 0,
    mockPort: 0,
    persistTo: seededState(join(dir, 'state')),
    worker: preparedWorker(),
    reuseRuntime: true,
  });
  // dist/client as `prepare` builds it; in build mode, tsc builds only when a source is newer than the build
  // info prepare's build (or an earlier run) left in dist/client, so an up-to-date checkout costs 0.4 CPU-s, not 6.
  const build = await run(process.execPath, [
    join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-b',
    'tsconfig.client.json',
  ]);
  expect(build.stdout + build.stderr).toBe('');
  // The documented install: a tarball packed from a checkout (its `prepare` built dist/client above;
  // dist/ is git-ignored, so `files` in package.json is what puts it in the tarball).
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir]);
  expect(pack.code, pack.stderr).toBe(0);
  const [packed] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  expect(packed?.files.map((f) => f.path)).toEqual(
    expect.arrayContaining(['dist/client/client/index.js', 'dist/client/client/index.d.ts', 'package.json']),
  );
  // `npm install <tarball>`, offline: a lockfile pins the tarball and its dependencies as this checkout's
  // lock does, so npm takes each from its cache (filled by this checkout's own `npm ci`).
  mkdirSync(join(consumer, 'src'), { recursive: true });
  const tarball = `./${packed!.filename}`;
  copyFileSync(join(dir, packed!.filename), join(consumer, packed!.filename));
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { tribunal: `file:${tarball}` } }),
  );
  writeFileSync(join(consumer, 'package-lock.json'), JSON.stringify(consumerLock(join(consumer, tarball), tarball)));
  const install = await run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: consumer,
  });
  expect(install.code, install.stderr).toBe(0);
  const shipped = join(consumer, 'node_modules', 'tribunal');
  expect(existsSync(join(shipped, 'dist', 'client', 'client', 'index.js'))).toBe(true);
  // What a consumer gets: the package's `dependencies` are exactly the packages its JavaScript and declarations
  // import (the Worker's libraries are bundled by wrangler, not installed with the client), and npm put those and
  // what they depend on beside it, nothing else (the SDK and Node's types are linked in below, after this check).
  const imported = packagesImported(
    shipped,
    packed!.files.map((f) => f.path),
  );
  const manifest = JSON.parse(readFileSync(join(shipped, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  expect(Object.keys(manifest.dependencies ?? {}).sort(), "the packed package.json's dependencies").toEqual(imported);
  expect(installedPackages(join(consumer, 'node_modules')), "the consumer's node_modules").toEqual(
    ['tribunal', ...Object.keys(lockClosure(imported)).map((k) => k.slice('node_modules/'.length))].sort(),
  );
  expect(existsSync(join(shipped, 'node_modules')), 'nothing nested under tribunal').toBe(false);
  stack = await starting;
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        // Node's types alone: es2022's default libraries include the DOM's, which declare fetch, Response and
        // the like too, and would let a declaration of ours that needs a browser's type check; without them the
        // program is also 2.4 MB of declarations smaller.
        lib: ['es2022'],
        types: ['node'],
        outDir: 'out',
        rootDir: 'src',
      },
      include: ['src'],
    }),
  );
  link('openai', join(REPO_ROOT, 'node_modules', 'openai'));
  link('@types/node', join(REPO_ROOT, 'node_modules', '@types', 'node'));
  env = { TRIBUNAL_URL: stack.url, TRIBUNAL_API_KEY: 'no-key' };
}, 180_000);

afterAll(async () => {
  await stopLeftovers();
  await stack?.stop();
});

async function evaluationOf(id: string): Promise<{ status: string; usage: { calls: number } }> {
  return (await fetch(`${stack!.url}/v1/evaluations/${id}`)).json() as Promise<{
    status: string;
    usage: { calls: number };
  }>;
}

describe('the response contract (tests/support/contract-fetch.ts)', () => {
  it("checks this file's fetches against the stack's served document", async () => {
    expect(globalThis.fetch).toBe(contractFetch);
    expect((await fetch(`${stack!.url}/v1/methods`)).status).toBe(200);
  });
});

describe('docs/integrations.md: curl', () => {
  it('lists the judges', async () => {
    const r = await run('bash', [...BASH_FLAGS, '-c', example(docs, 'curl-models').code], { env });
    expect(r.stderr).toBe('');
    const ids = (JSON.parse(r.stdout) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(ids).toContain('tribunal/chateval-faireval');
  });

  it('judges a plain-text task and answers the verdict as the message', async () => {
    const r = await run('bash', [...BASH_FLAGS, '-c', example(docs, 'curl-chat').code], { env });
    expect(r.code, r.stderr).toBe(0);
    const completion = JSON.parse(r.stdout) as {
      object: string;
      choices: { message: { content: string } }[];
      usage: { total_tokens: number };
    };
    expect(completion.object).toBe('chat.completion');
    const verdict = JSON.parse(completion.choices[0]!.message.content) as {
      evaluationId: string;
      preset: string;
      winner: string;
    };
    expect(verdict).toMatchObject({ preset: 'fastchat-pair', winner: expect.stringMatching(/^(A|B|tie)$/) as unknown });
    expect(completion.usage.total_tokens).toBeGreaterThan(0);
    expect((await evaluationOf(verdict.evaluationId)).status).toBe('succeeded');
  });

  it('streams the debate, the verdict, the usage and [DONE]', async () => {
    const r = await run('bash', [...BASH_FLAGS, '-c', example(docs, 'curl-stream').code], { env });
    expect(r.code, r.stderr).toBe(0);
    const frames = r.stdout.split('\n\n').filter((f) => f.startsWith('data: '));
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map(
      (f) =>
        JSON.parse(f.slice(6)) as {
          choices: { delta: { content?: string } }[];
          usage?: { total_tokens: number } | null;
        },
    );
    expect(chunks.some((c) => c.choices[0]?.delta.content?.startsWith('[VERDICT]\n'))).toBe(true);
    expect(
      chunks.filter((c) => c.choices[0]?.delta.content?.startsWith('[Scorer · initial score')).length,
    ).toBeGreaterThan(0);
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });
});

describe('TypeScript examples, as a consumer project', () => {
  const TS_EXAMPLES = {
    'openai-node': example(docs, 'openai-node').code,
    'client-readme': example(readme, 'client-readme').code,
  };
  /** One tsc run over every TypeScript example (a run takes most of the time); its diagnostics. */
  let diagnostics = '';

  beforeAll(async () => {
    for (const [name, code] of Object.entries(TS_EXAMPLES)) writeFileSync(join(consumer, 'src', `${name}.ts`), code);
    // The consumer's tsc, checking its own files and Tribunal's declarations but not every other package's
    // (tests/support/consumer-typecheck.ts): 7 CPU-s instead of 14 at load 20. Its types stripped by esbuild here
    // and run by plain node (TypeScript found through NODE_PATH): tsx's loader cost the process ~0.9 CPU-s more.
    const source = readFileSync(join(REPO_ROOT, 'tests', 'support', 'consumer-typecheck.ts'), 'utf8');
    const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20' });
    const script = join(dir, 'consumer-typecheck.mjs');
    writeFileSync(script, code);
    const tsc = await run(process.execPath, [script], {
      cwd: consumer,
      env: { NODE_PATH: join(REPO_ROOT, 'node_modules') },
    });
    diagnostics = tsc.stdout + tsc.stderr;
  });

  async function compileAndRun(name: keyof typeof TS_EXAMPLES): Promise<string> {
    expect(diagnostics, `tsc on the examples`).toBe('');
    const r = await run(process.execPath, [join('out', `${name}.js`)], { cwd: consumer, env });
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  }

  it('the OpenAI SDK for Node (docs/integrations.md) judges plainly and streamed', async () => {
    const out = await compileAndRun('openai-node');
    expect(out).toMatch(/^winner (A|B|tie) \(confidence [\d.]+\) · \d+ tokens · ev_[0-9a-f]{32}$/m);
    expect(out).toContain('[Scorer · initial score · ');
    expect(out).toMatch(/\[VERDICT\]\n\{"evaluationId":"ev_[0-9a-f]{32}","model":"tribunal\/debate-summeval"/);
    expect(out).toMatch(/^\d+ tokens in the debate$/m);
  });

  it("the typed client's README example (src/client/README.md) imports tribunal/client, judges and narrows by status", async () => {
    const out = await compileAndRun('client-readme');
    expect(out).toMatch(/^winner (A|B|tie) · confidence [\d.]+ · position flip (true|false)$/m);
    expect(out).toMatch(/^8 calls · \d+ tokens · \$[\d.e-]+$/m);
    expect(out).toMatch(/^transcript: 8 replies, first by \S+/m);
    expect(out).toContain('refused: 400 unknown_preset');
  });
});

describe('promptfoo', () => {
  const installed = existsSync(PROMPTFOO);
  it.skipIf(!installed && !PEERS_REQUIRED)(
    'runs the documented eval through the provider file (promptfoo 0.121.20)',
    async () => {
      expect(installed, 'bench/peers is not installed: npm ci --prefix bench/peers').toBe(true);
      const version = JSON.parse(
        readFileSync(join(REPO_ROOT, 'bench', 'peers', 'node_modules', 'promptfoo', 'package.json'), 'utf8'),
      ) as { version: string };
      expect(version.version).toBe('0.121.20');
      writeFileSync(join(consumer, 'promptfooconfig.yaml'), example(docs, 'promptfoo').code);
      const r = await run(
        PROMPTFOO,
        [
          'eval',
          '-c',
          'promptfooconfig.yaml',
          '-o',
          'results.json',
          '--no-cache',
          '--no-write',
          '--no-table',
          '--no-progress-bar',
          '--no-share',
        ],
        {
          cwd: consumer,
          env: {
            ...env,
            PROMPTFOO_DISABLE_TELEMETRY: '1',
            PROMPTFOO_DISABLE_UPDATE: '1',
            PROMPTFOO_CONFIG_DIR: join(dir, 'promptfoo'),
            NO_COLOR: '1',
          },
        },
      );
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      const results = JSON.parse(readFileSync(join(consumer, 'results.json'), 'utf8')) as {
        results: {
          results: {
            success: boolean;
            error?: string | null;
            response: {
              output: string;
              tokenUsage: { total: number; numRequests: number };
              cost: number;
              metadata: { evaluationId: string };
            };
          }[];
        };
      };
      const rows = results.results.results;
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.success, row.error ?? '').toBe(true);
        const verdict = JSON.parse(row.response.output) as { evaluationId: string; winner: string };
        expect(row.response.metadata.evaluationId).toBe(verdict.evaluationId);
        const ev = await evaluationOf(verdict.evaluationId);
        expect(ev.status).toBe('succeeded');
        expect(row.response.tokenUsage.numRequests).toBe(ev.usage.calls);
        expect(row.response.tokenUsage.total).toBeGreaterThan(0);
      }
    },
    180_000,
  );
});
