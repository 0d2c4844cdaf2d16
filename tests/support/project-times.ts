/**
 * Reporter of every vitest run (vitest.config.ts), after vitest's own summary: one line per project with
 * its wall time (its first file's start to its last file's end, and when it started in the run) and
 * where the time went, summed over its files: setup files, importing the test files, tests and hooks.
 * So a slower `npm test` shows which project grew, and whether in setup or in tests.
 *
 * `TRIBUNAL_TEST_TIMELINE=<file>` also writes one line per file as it ends: its start and end in seconds since
 * vitest started, its project and path, and its setup's seconds (to see where slots stood idle: a runtime
 * starting, a long file last; a worker project's file with seconds of setup is a runtime's first). With
 * `TRIBUNAL_TEST_TIMELINE_ORIGIN=<epoch ms>` (npm test's two processes, tests/support/run-suite.ts) the seconds count
 * from that instant instead, so both processes' timelines share one clock.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

interface ProjectSpan {
  /** performance.now() of its first file's start, and of its last file's end. */
  first: number;
  last: number;
  files: number;
  setupMs: number;
  importMs: number;
  testsMs: number;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export default class ProjectTimes implements Reporter {
  private vitest: Vitest | undefined;
  private runStart = performance.now();
  private readonly spans = new Map<string, ProjectSpan>();

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.runStart = performance.now();
  }

  onTestRunStart(): void {
    this.spans.clear();
    const timeline = process.env.TRIBUNAL_TEST_TIMELINE;
    if (timeline) writeFileSync(timeline, '');
  }

  /** performance.now() of each file's start, for the timeline. */
  private readonly starts = new Map<string, number>();

  onTestModuleStart(testModule: TestModule): void {
    this.spanOf(testModule);
    this.starts.set(testModule.id, performance.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    const span = this.spanOf(testModule);
    const d = testModule.diagnostic();
    span.last = performance.now();
    span.files += 1;
    span.setupMs += d.setupDuration;
    span.importMs += d.collectDuration;
    span.testsMs += d.duration;
    const timeline = process.env.TRIBUNAL_TEST_TIMELINE;
    if (timeline) {
      const origin = Number(process.env.TRIBUNAL_TEST_TIMELINE_ORIGIN ?? NaN);
      const from = Number.isFinite(origin) ? origin - performance.timeOrigin : this.runStart;
      const at = (t: number) => ((t - from) / 1000).toFixed(1);
      const line = `${at(this.starts.get(testModule.id) ?? span.last)} ${at(span.last)} ${testModule.project.name} ${testModule.relativeModuleId} ${(d.setupDuration / 1000).toFixed(1)}\n`;
      appendFileSync(timeline, line);
    }
  }

  onTestRunEnd(): void {
    if (this.spans.size === 0 || !this.vitest) return;
    const width = Math.max(...[...this.spans.keys()].map((n) => n.length));
    const lines = [...this.spans.entries()]
      .sort(([, a], [, b]) => a.first - b.first)
      .map(
        ([name, s]) =>
          `  ${name.padEnd(width)}  ${seconds(s.last - s.first).padStart(8)}  from ${seconds(s.first - this.runStart).padStart(8)}` +
          `  ${String(s.files).padStart(3)} files  setup ${seconds(s.setupMs)}, import ${seconds(s.importMs)}, tests ${seconds(s.testsMs)}`,
      );
    this.vitest.logger.log(
      [
        '',
        ' Projects (wall time from the first file start to the last file end; setup, import and tests summed over files)',
        ...lines,
        `  ${'all'.padEnd(width)}  ${seconds(performance.now() - this.runStart).padStart(8)}  since vitest started`,
        '',
      ].join('\n'),
    );
  }

  private spanOf(testModule: TestModule): ProjectSpan {
    const name = testModule.project.name || 'default';
    let span = this.spans.get(name);
    if (!span) {
      const now = performance.now();
      span = { first: now, last: now, files: 0, setupMs: 0, importMs: 0, testsMs: 0 };
      this.spans.set(name, span);
    }
    return span;
  }
}
