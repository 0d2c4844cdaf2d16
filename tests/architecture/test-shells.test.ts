/**
 * No test depends on the shell startup files of the machine it runs on (a system bashrc that reads an unset
 * `PS1` under `-u` once failed a test): every shell a test or bench script starts is bash with
 * tests/support/shell.ts `BASH_FLAGS` (no profile, no rc) or sh, each with `shellEnv` (no `BASH_ENV`/`ENV`),
 * and none is a login or interactive shell or a `shell: true` spawn (which runs /bin/sh with the caller's
 * environment as is). A static read of the sources, like the dependency rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './import-graph.js';

/** The test that shows what the flags prevent: it starts bash without them on purpose. */
const SHOWS_THE_FAILURE = 'tests/cli/shell-startup.test.ts';
/** This file names what it looks for. */
const SELF = 'tests/architecture/test-shells.test.ts';

/** A shell as the program of a spawn: `spawn('bash', …`, `execFile('sh', …`, `run('bash', …`. */
const SHELL_CALL = /\(\s*['"](ba)?sh['"]\s*,/;
/** A login or interactive shell, or Node's shell option. */
const STARTUP_FLAGS = /['"]-(l|i|lc|ic|il|li)['"]|['"]--login['"]|['"]--interactive['"]|\bshell:\s*true\b/;
/** Lines of a call looked at for its flags and environment. */
const CALL_LINES = 12;

/** Our own .ts files under `dir`; installed packages (bench/peers/node_modules) are not ours to hold to it. */
function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

function offenders(): string[] {
  const found: string[] = [];
  for (const path of [...files('tests'), ...files('bench')]) {
    if (path === SHOWS_THE_FAILURE || path === SELF) continue;
    const lines = readFileSync(join(ROOT, path), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const at = `${path}:${i + 1}: ${line.trim()}`;
      if (STARTUP_FLAGS.test(line)) found.push(`${at} (a login or interactive shell, or shell: true)`);
      const shell = SHELL_CALL.exec(line);
      if (!shell) return;
      const call = lines.slice(i, i + CALL_LINES).join('\n');
      if (shell[1] && !call.includes('BASH_FLAGS')) found.push(`${at} (bash without BASH_FLAGS)`);
      // The environment is built in the helper the call goes through (`run`), or right there.
      if (!call.includes('shellEnv(') && !lines.join('\n').includes('shellEnv(')) found.push(`${at} (no shellEnv)`);
    });
  }
  return found;
}

describe('shells started by tests and bench scripts', () => {
  it('read no startup file: bash with BASH_FLAGS or sh, with shellEnv, never login, interactive or shell: true', () => {
    expect(offenders()).toEqual([]);
  });

  it('are found where they are started (the rule is not vacuous)', () => {
    const found = readFileSync(join(ROOT, 'tests/client/e2e/integrations.test.ts'), 'utf8')
      .split('\n')
      .filter((l) => SHELL_CALL.test(l));
    expect(found.length).toBeGreaterThan(0);
    expect(SHELL_CALL.test("spawnSync('bash', ['-lc', 'echo'])")).toBe(true);
    expect(STARTUP_FLAGS.test("spawnSync('bash', ['-lc', 'echo'])")).toBe(true);
    expect(STARTUP_FLAGS.test("spawn('npm', ['start'], { shell: true })")).toBe(true);
  });
});
