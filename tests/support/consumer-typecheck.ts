/**
 * `tsc -p tsconfig.json` in a consumer project, as tests/client/e2e/integrations.test.ts runs it, checking
 * what the consumer wrote and the declarations Tribunal ships (`node_modules/tribunal/…`), not every other
 * package's declarations. The consumer's tsconfig leaves `skipLibCheck` off, as a strict project may, so
 * Tribunal's `.d.ts` must check against Node's types alone; plain tsc then also checked zod's, openai's and
 * @types/node's own declarations (about 400 files, 13 of its 14 CPU-s at load 12), which proves nothing about
 * Tribunal. Here one program is built from that tsconfig, the same options, and its diagnostics are asked
 * for the consumer's files and Tribunal's only; each source file is emitted on its own (a whole-program emit
 * checks every file first). Prints the diagnostics as tsc does (nothing when clean) and exits 1 when any.
 *
 * Run: `node --import tsx tests/support/consumer-typecheck.ts` with the consumer as the working directory, or
 * this file with its types stripped (esbuild's `transform`) by plain node, NODE_PATH naming a node_modules that
 * holds TypeScript (as integrations.test.ts does).
 */
import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';

// TypeScript through `require`: an ESM import of its 9 MB CommonJS file has Node scan all of it for its export
// names first (cjs-module-lexer, behind tsx's loader hooks), ~1.2 CPU-s of this process's 6-7.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

/** A declaration file of ours: what the checkout packed into the consumer's node_modules/tribunal. */
const TRIBUNAL_DECLARATION = /[\\/]node_modules[\\/]tribunal[\\/]/;

const cwd = process.cwd();
const config = ts.getParsedCommandLineOfConfigFile(
  'tsconfig.json',
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
if (!config) throw new Error(`no tsconfig.json in ${cwd}`);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const checked = program.getSourceFiles().filter((f) => !f.isDeclarationFile || TRIBUNAL_DECLARATION.test(f.fileName));
const diagnostics = [
  ...config.errors,
  ...program.getOptionsDiagnostics(),
  ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ...checked.filter((f) => !f.isDeclarationFile).flatMap((f) => program.emit(f).diagnostics),
];
process.stdout.write(
  ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => cwd,
    getNewLine: () => '\n',
  }),
);
process.exitCode = diagnostics.length > 0 ? 1 : 0;
