/**
 * `npm start --runtime wrangler`'s crons and sweeps. It fires the crons through a route `wrangler dev` serves for
 * a Worker with [assets] as ours is (src/cli/cron.ts `wranglerTrigger`): Miniflare's `/cdn-cgi/handler/scheduled`
 * lands on the assets proxy there, which has no scheduled handler, and every event answered 500. A tiny Worker
 * with the same [assets] routing stands in for ours: wrangler dev starts it in about 2 s, where ours builds its
 * viewer first. And it migrates every D1 database before wrangler dev starts, the shards the sweeps read too.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTART_CRON, WRANGLER_SCHEDULED_FLAG, wranglerTrigger } from '../../src/cli/cron.js';
import { freePort } from '../../src/cli/ports.js';
import { spawnGroup, stopGroup } from '../../src/cli/process-group.js';
import { CONFIG_PATH, WRANGLER, WRANGLER_ENV, wranglerMigrationCommands } from '../../src/cli/worker-bundle.js';
import { readWranglerConfig } from '../../src/cli/wrangler-config.js';

/** Records each event's cron and answers them on any path the assets do not serve. */
const WORKER = `
const runs = [];
export default {
  fetch() { return Response.json(runs); },
  scheduled(controller) { runs.push(controller.cron); },
};
`;

let child: ChildProcess | undefined;
let url = '';

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-wrangler-scheduled-'));
  mkdirSync(join(dir, 'public'));
  writeFileSync(join(dir, 'public', 'index.html'), '<p>viewer</p>\n');
  writeFileSync(join(dir, 'worker.js'), WORKER);
  // As wrangler.toml routes ours: the Worker first, but for the viewer's page.
  writeFileSync(
    join(dir, 'wrangler.toml'),
    [
      'name = "scheduled-probe"',
      'main = "worker.js"',
      'compatibility_date = "2026-05-01"',
      '[triggers]',
      'crons = ["* * * * *"]',
      '[assets]',
      'directory = "public"',
      'run_worker_first = ["/*", "!/"]',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawnGroup(
    WRANGLER,
    [
      'dev',
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--show-interactive-dev-session=false',
      WRANGLER_SCHEDULED_FLAG,
    ],
    { cwd: dir, stdio: 'ignore', env: { ...process.env, ...WRANGLER_ENV } },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/runs`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('wrangler dev did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}, 90_000);

afterAll(async () => {
  if (child) await stopGroup(child);
});

describe('the wrangler runtime fires the crons', () => {
  it("runs the Worker's scheduled handler for a cron and for the sweep after a restart", async () => {
    const trigger = wranglerTrigger(url);
    expect(await trigger('* * * * *', new Date())).toBeNull();
    expect(await trigger(RESTART_CRON, new Date())).toBeNull();
    const runs = await (await fetch(`${url}/runs`)).json();
    expect(runs).toEqual(['* * * * *', RESTART_CRON]);
  });
});

describe('the wrangler runtime migrates', () => {
  it('every D1 database wrangler.toml declares: the control database and each shard', () => {
    const config = readWranglerConfig({ config: CONFIG_PATH });
    const commands = wranglerMigrationCommands(config, '/state');
    expect(commands.map((args) => args[3])).toEqual(config.d1_databases.map((d) => d.binding));
    expect(commands.map((args) => args[3])).toEqual(expect.arrayContaining(['DB', 'DB_00', 'DB_03']));
    expect(commands[0]).toEqual(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', '/state']);
  });
});
