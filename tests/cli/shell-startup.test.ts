/**
 * The tests' shell scripts (tests/support/shell.ts) read no startup file: a machine whose shell setup
 * reads an unset `PS1` (as a system bashrc does) under the scripts' `-u` cannot fail them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASH_FLAGS, shellEnv } from '../support/shell.js';

describe("a test's shell script", () => {
  it('runs the same whatever startup file the environment names', () => {
    const rc = join(mkdtempSync(join(tmpdir(), 'tribunal-shell-')), 'bashrc');
    writeFileSync(rc, 'echo "prompt: $PS1"\n');
    const env = { ...process.env, BASH_ENV: rc, ENV: rc, PS1: undefined };
    const run = (flags: readonly string[], e: NodeJS.ProcessEnv) =>
      spawnSync('bash', [...flags, '-c', 'echo ok'], { env: e, encoding: 'utf8' });
    // As the scripts ran before: the startup file is read, and complains under -u on stderr (which the
    // docs' examples must leave empty).
    expect(run(['-euo', 'pipefail'], env).stderr).toContain('PS1: unbound variable');
    const clean = run(BASH_FLAGS, shellEnv(env));
    expect({ status: clean.status, stdout: clean.stdout, stderr: clean.stderr }).toEqual({
      status: 0,
      stdout: 'ok\n',
      stderr: '',
    });
  });
});
