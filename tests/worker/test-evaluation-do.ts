/**
 * @module
 * `TestEvaluationDO`: `EvaluationDO` with hooks tests drive through `runInDurableObject` (see
 * `runInTestObject` in ./helpers.ts) instead of casting into private members, as cloudflare/agents does.
 * Without a hook in use it behaves exactly like the production class.
 */
import { EvaluationDO } from '../../durable-objects/evaluation/index.js';
import type { CachedEvaluation } from '../../durable-objects/evaluation/instance.js';
import type { AnyMethod } from '../../src/engine/method.js';
import type { Bindings } from '../../src/config/bindings.js';
import type { EvaluationError } from '../../src/evaluations/live-events.js';
import type { StartJob } from '../../src/evaluations/job-rows.js';
import type { StatusResult } from '../../src/evaluations/rpc.js';
import type { EndStatus } from '../../src/evaluations/status.js';

/** The production class plus test hooks. */
export class TestEvaluationDO extends EvaluationDO {
  /**
   * Appended to every engine version this code reports, for every instance (module state, shared by the
   * tests and the objects of one test file): a non-empty value simulates a deploy whose engine version
   * changed. Evict the objects (`abortAllDurableObjects`) after setting it, as a deploy would; reset it
   * after the test.
   */
  static engineVersionSuffix = '';

  /** Bumped by {@link endWaits}; module state, as above. */
  private static waitsEnded = 0;

  /**
   * Ends, within 50 ms, the wait of every `startAndAwait` under way, in live and evicted instances alike (an
   * evicted instance's code goes on in this runtime until its wait's timer fires): each call then does what it
   * does when its wait ends. A test that evicts an object while its caller waits ends that wait on this event
   * instead of sitting out a wait made long so that no load ends it early.
   */
  static endWaits(): void {
    TestEvaluationDO.waitsEnded++;
  }

  override async startAndAwait(id: string, job: StartJob, timeoutMs: number): Promise<StatusResult> {
    if (timeoutMs <= 0) return super.startAndAwait(id, job, timeoutMs);
    const seen = TestEvaluationDO.waitsEnded;
    // The object's own timer ends the wait: workerd runs what follows a resolved promise in the context that
    // resolved it, and the test's context may do no I/O of this object's.
    const watch = setInterval(() => {
      if (TestEvaluationDO.waitsEnded === seen) return;
      clearInterval(watch);
      try {
        this.instance.streams.closeAll();
      } catch {
        // An evicted instance's sockets cannot be listed; its waiters were resolved first.
      }
    }, 50);
    try {
      return await super.startAndAwait(id, job, timeoutMs);
    } finally {
      clearInterval(watch);
    }
  }

  protected override engineVersion(method: AnyMethod): string {
    return super.engineVersion(method) + TestEvaluationDO.engineVersionSuffix;
  }

  /** The bindings this instance uses (spy on `bindings.DB` to watch or break its D1 calls). */
  get bindings(): Bindings {
    return this.instance.env;
  }

  /** Replaces bindings for this instance only (e.g. `STEP_BUDGET_MS: '0'`); a fresh instance after eviction has the real ones. */
  useBindings(patch: Partial<Bindings>): void {
    this.instance.env = { ...this.instance.env, ...patch };
  }

  /** Ends the started evaluation in the object's own storage only, as `cancel()` does before its D1 writes. */
  endLocally(status: EndStatus, error: EvaluationError): void {
    this.instance.setTerminal(this.started(), status, error);
  }

  /** Runs the final write now (single-flight: concurrent calls share one D1 batch). */
  finalizeNow(): Promise<void> {
    return this.final.finalize(this.started());
  }

  /**
   * Makes this instance's progress writes wait `ms` before they go out instead of the production
   * `PROGRESS_DELAY_MS` (50 ms), so results that arrive together coalesce however long a loaded machine takes
   * between them; a fresh instance after eviction has the production wait.
   */
  useProgressDelay(ms: number): void {
    const writer = this.final;
    const push = writer.pushProgress.bind(writer);
    writer.pushProgress = (evaluation) => {
      push(evaluation, ms);
    };
  }

  /** True while a progress write of this instance waits or runs. */
  progressBusy(): boolean {
    return this.final.progressBusy;
  }

  /** Sets the count of consecutive failed final writes (the backoff grows with it). */
  setFinalizeFailures(n: number): void {
    this.started().meta.finalize_failures = n;
  }

  /** The rubric content the running engine judges by (as this instance built or replayed it), or undefined. */
  engineRubric(): unknown {
    return this.started().engine?.state.rubric;
  }

  private started(): CachedEvaluation {
    const evaluation = this.instance.load();
    if (!evaluation) throw new Error('the object has not started an evaluation');
    return evaluation;
  }
}
