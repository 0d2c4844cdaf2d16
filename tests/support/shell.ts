/**
 * Shell scripts in tests (README and docs examples) run the same on every machine: bash reads no startup
 * file (a system bashrc that reads an unset `PS1` failed a test under `-u`), and the environment carries
 * nothing that makes a shell source one or define functions.
 */

/** bash's flags for a test's script: no profile, no bashrc, strict (`-euo pipefail`). Then `-c`, the code. */
export const BASH_FLAGS: readonly string[] = ['--noprofile', '--norc', '-euo', 'pipefail'];

/**
 * `env` without `BASH_ENV` and `ENV` (files a non-interactive bash, or an interactive sh, sources first)
 * and without exported bash functions (`BASH_FUNC_…`).
 */
export function shellEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([k]) => k !== 'BASH_ENV' && k !== 'ENV' && !k.startsWith('BASH_FUNC_')),
  );
}
