/**
 * Global setup of the e2e project: bundles the Worker once (`wrangler deploy --dry-run`, as every local
 * stack would) and provides the bundle's entry as `inject('workerBundle')`, so each stack a test starts
 * serves it instead of bundling again (`startLocalStack({ bundle })`). `npm start`, run as a developer
 * runs it (tests/cli/e2e/start.test.ts), still bundles on its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWorker } from '../../src/cli/local-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Entry module of the Worker bundle every e2e stack serves. */
    workerBundle: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-e2e-bundle-'));
  project.provide('workerBundle', await buildWorker(dir));
  return () => {
    rmSync(dir, { recursive: true, force: true });
  };
}
