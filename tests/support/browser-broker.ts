/**
 * Global setup of the e2e project: one headless Chromium for every browser test file of the run, launched
 * when the first file asks for it (a run without browser tests launches none). A launch costs about
 * 5 CPU-s on the loaded 2-core machine; the viewer files each launched their own. The broker is a loopback
 * HTTP endpoint in vitest's main process, handed to the files as `inject('browserBroker')`: a GET answers
 * the browser server's WebSocket endpoint (tests/web/browser.ts connects to it and opens a fresh context
 * per file, as a new profile was), or a 500 with the launch's error. The browser ends with the run.
 *
 * It also hands out `inject('auditDir')`: a folder where tests/web/browser.ts `expectAccessible` notes the
 * pages already audited in this run, so each distinct page gets one accessibility audit, whichever file
 * shows it first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** GET it for the WebSocket endpoint of the run's one Chromium (launched on the first GET). */
    browserBroker: string;
    /** Where the run notes the pages it has audited with axe (one file per page). */
    auditDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let launching: Promise<BrowserServer> | undefined;
  const launch = async (): Promise<BrowserServer> => {
    // Imported on the first request, not with this setup: vitest runs it before the run's first file.
    const [{ chromium }, { CHROMIUM, CHROMIUM_ARGS }] = await Promise.all([
      import('playwright-core'),
      import('../web/browser.js'),
    ]);
    return chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  };
  const server = createServer((_req, res) => {
    launching ??= launch();
    launching.then(
      (browser) => res.end(browser.wsEndpoint()),
      (e: unknown) => res.writeHead(500).end(e instanceof Error ? e.message : String(e)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const auditDir = mkdtempSync(join(tmpdir(), 'tribunal-e2e-audits-'));
  project.provide('browserBroker', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  project.provide('auditDir', auditDir);
  return async () => {
    server.close();
    rmSync(auditDir, { recursive: true, force: true });
    if (launching) await (await launching.catch(() => null))?.close();
  };
}
