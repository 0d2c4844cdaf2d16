/**
 * @module
 * bench:batch's argument checks that need no stack (./batch.ts runs on import, so they live here for tests).
 */
import { UsageError } from '../src/cli/args.js';

/** The preset whose calibration `--both-orders` turns back on: the only one the flag applies to. */
export const BOTH_ORDERS_PRESET = 'fastchat-pair';

/**
 * Whether the batch runs with calibration off (one call per item): `fastchat-pair` unless `--both-orders`.
 * @throws UsageError naming `--both-orders` with any other preset, which it would silently not change.
 */
export function oneOrderOf(preset: string, bothOrders: boolean): boolean {
  if (bothOrders && preset !== BOTH_ORDERS_PRESET)
    throw new UsageError(
      `--both-orders applies to --preset ${BOTH_ORDERS_PRESET} only (it turns its calibration back on); --preset ${preset} runs as its preset says`,
    );
  return preset === BOTH_ORDERS_PRESET && !bothOrders;
}
