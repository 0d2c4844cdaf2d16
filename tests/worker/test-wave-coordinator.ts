/**
 * @module
 * `TestWaveCoordinatorDO`: `WaveCoordinatorDO` with a hook tests drive through `runInDurableObject`: it can
 * crash once right after a part's upload is stored (before its batch is created), as a deploy or an eviction
 * there would. Without the hook in use it behaves exactly like the production class.
 */
import { WaveCoordinatorDO } from '../../durable-objects/wave-coordinator/index.js';

/** The production class plus test hooks. */
export class TestWaveCoordinatorDO extends WaveCoordinatorDO {
  /** Crashes (throws out of the alarm) after the next stored upload, once. */
  crashAfterUpload = false;

  protected override afterUpload(): void {
    if (!this.crashAfterUpload) return;
    this.crashAfterUpload = false;
    throw new Error('test: crashed between upload and submit');
  }
}
