/**
 * @module
 * Builds the Worker's static assets into `dist/web/` (wrangler.toml `[assets]`; build output, git-ignored):
 * the live viewer, `src/web/app/main.ts` (strict TypeScript, type-checked by tsconfig.web.json) bundled by
 * esbuild for the browser into `app/app.js` with `app.css` next to it, its page `index.html` and the assets'
 * headers `_headers` at the root (the viewer is served at `/`), and Scalar's browser bundle for the API
 * reference page (`vendor/scalar.js`, copied from the `@scalar/api-reference` devDependency, version pinned
 * by package-lock.json).
 *
 * Who runs it: `npm run build:web`, which `npm install` / `npm ci` (`prepare`) and `npm test` call, and
 * wrangler's `[build] command` (every `wrangler deploy`, `wrangler dev`, the local stack's dry-run bundle behind
 * `npm start`, the e2e tests and the meta-eval runner), which runs the same `node --import tsx src/web/build.ts`
 * without npm. It takes well under a second.
 *
 * Files whose content did not change are not rewritten, so watchers (`wrangler dev`'s asset reload,
 * `npm start`) see no change when there is none.
 *
 * The bundle must contain only the viewer's own code: the API types it imports are `import type` and
 * erased, and the build fails if any module from outside `src/web/app` reaches the bundle (a value import
 * of server code would ship zod and the engine to every browser).
 *
 * Usage: `node --import tsx src/web/build.ts`. Node only.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The viewer's sources. */
export const WEB_SOURCE = join(ROOT, 'src/web/app');
/** The static assets folder (wrangler.toml `[assets] directory`): the page goes to its root (served at `/`). */
export const ASSETS_OUTPUT = join(ROOT, 'dist/web');
/** Where the script and styles go (served at `/app/`). */
export const WEB_OUTPUT = join(ASSETS_OUTPUT, 'app');
/** Scalar's standalone browser bundle, for the API reference page (`GET /docs` loads it from the assets). */
const SCALAR_BUNDLE = join(ROOT, 'node_modules/@scalar/api-reference/dist/browser/standalone.js');
/** Files copied as they are: source path → destination. */
const COPIED: Record<string, string> = {
  [join(WEB_SOURCE, 'index.html')]: join(ASSETS_OUTPUT, 'index.html'),
  [join(WEB_SOURCE, '_headers')]: join(ASSETS_OUTPUT, '_headers'),
  [join(WEB_SOURCE, 'app.css')]: join(WEB_OUTPUT, 'app.css'),
  [SCALAR_BUNDLE]: join(ASSETS_OUTPUT, 'vendor/scalar.js'),
};
/** Files the build writes; anything else in the output folder is left alone. */
const OUTPUTS = [join(WEB_OUTPUT, 'app.js'), join(WEB_OUTPUT, 'app.js.map'), ...Object.values(COPIED)];

/** Sizes of what one build wrote, in bytes. */
export interface WebBuildResult {
  files: Record<string, number>;
}

/** Builds the viewer into {@link WEB_OUTPUT}; rejects when esbuild fails or server code reaches the bundle. */
export async function buildWeb(): Promise<WebBuildResult> {
  const result = await build({
    entryPoints: [join(WEB_SOURCE, 'main.ts')],
    outfile: join(WEB_OUTPUT, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // Browsers of the last two years (fetch streams, structuredClone, :focus-visible are older still).
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const foreign = Object.keys(result.metafile.inputs).filter((input) =>
    relative(WEB_SOURCE, join(ROOT, input)).startsWith('..'),
  );
  if (foreign.length > 0)
    throw new Error(`server code reached the viewer bundle (use \`import type\`): ${foreign.join(', ')}`);
  const outputs = new Map<string, Uint8Array>(result.outputFiles.map((f) => [f.path, f.contents]));
  // Scalar's bundle is there once `npm install` ran; without it only the reference page lacks its script.
  for (const [from, to] of Object.entries(COPIED)) if (existsSync(from)) outputs.set(to, readFileSync(from));
  const files: Record<string, number> = {};
  for (const [path, contents] of outputs) {
    mkdirSync(dirname(path), { recursive: true });
    if (!existsSync(path) || !Buffer.from(contents).equals(readFileSync(path))) writeFileSync(path, contents);
    files[relative(ASSETS_OUTPUT, path)] = contents.byteLength;
  }
  // Outputs of an older build that this one no longer writes.
  for (const f of OUTPUTS) if (!outputs.has(f)) rmSync(f, { force: true });
  return { files };
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const started = performance.now();
  buildWeb().then(
    (r) => {
      const sizes = Object.entries(r.files)
        .map(([f, n]) => `${f} ${(n / 1024).toFixed(1)} KiB`)
        .join(', ');
      process.stdout.write(`assets built into dist/web in ${Math.round(performance.now() - started)} ms: ${sizes}\n`);
    },
    (e: unknown) => {
      process.stderr.write(`viewer build failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
