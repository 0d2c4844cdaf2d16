/**
 * @module
 * What `bench:peers` (bench/peers.ts) measures every tool with: the closed loop, the items it judges and the row
 * it prints for each tool.
 */
import type { CpuSplit } from './isolate-cpu.js';

/** The tools `bench:peers` can run, in the order it prints them. */
export const TOOLS = ['autoevals', 'promptfoo', 'tribunal', 'forward', 'bare'] as const;
/** One of {@link TOOLS}. */
export type PeerTool = (typeof TOOLS)[number];

/** The item `i`: a question and two answers (the second is the weaker one). */
export function item(i: number): { question: string; answerA: string; answerB: string } {
  return {
    question: `(${i}) Which answer explains recursion better?`,
    answerA: `A function that calls itself on a smaller input until it reaches a base case (${i}).`,
    answerB: 'Recursion is when something is recursive.',
  };
}

/** One tool's figures: throughput, failures and CPU per item by process. */
export interface Row {
  tool: PeerTool;
  itemsPerSecond: number;
  failed: number;
  /** CPU ms per item of the process that judges: the library (this client) or Tribunal's runtime. */
  judgeCpuMs: number | null;
  /** Of {@link judgeCpuMs}, the local runtime's workerd (null for the libraries). */
  workerdCpuMs: number | null;
  mockCpuMs: number;
  clientCpuMs: number;
  note: string;
  /**
   * workerd's CPU per item by whose it is (`--split yes`; null for the libraries): with the main thread's
   * run-queue wait counted as held (an upper bound of the isolates' share) and taken out (a lower bound).
   */
  split: { upper: CpuSplit; lower: CpuSplit } | null;
}

/** Runs `task` for items 0..n-1 with `concurrency` in flight; resolves to the wall seconds and failures. */
export async function closedLoop(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<{ seconds: number; failed: number; firstError?: string }> {
  let next = 0;
  let failed = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) {
        try {
          await task(i);
        } catch (e) {
          failed += 1;
          firstError ??= e instanceof Error ? e.message : String(e);
        }
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, failed, ...(firstError ? { firstError } : {}) };
}

/** `text`, with the first error of the run appended when there was one (120 characters of it). */
export function note(text: string, firstError: string | undefined): string {
  return firstError ? `${text}; first error: ${firstError.slice(0, 120)}` : text;
}
