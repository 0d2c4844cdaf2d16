/**
 * Paths a bench is given on its command line, resolved as any command's are: against the directory it was run
 * from. `npm run` starts a script at the repository root and passes that directory as `INIT_CWD`, so a plain
 * `resolve` would read `npm run bench:capacity -- --out x.json` from a subdirectory against the root.
 */
import { resolve } from 'node:path';

/** `path` resolved against the directory the command was run from (`INIT_CWD` under npm, else the process's). */
export function fromWorkingDir(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.INIT_CWD ?? process.cwd(), path);
}
