/**
 * @module
 * `WebhookLaneDO`: one per webhook receiver (`idFromName(laneKeyOf(…))`, src/webhooks/lane.ts), which runs that
 * receiver's delivery attempts and holds their retries, so a receiver that hangs delays only its own
 * deliveries. A thin driver: the lane's logic is `DeliveryLane` (src/webhooks/lane.ts).
 */
import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../../src/config/bindings.js';
import { applyLogLevel } from '../../src/config/vars.js';
import type { WebhookLaneRpc } from '../../src/webhooks/lane.js';
import { DeliveryLane } from '../../src/webhooks/lane.js';
import { attemptDelivery } from '../../src/webhooks/deliver.js';
import { OTLP_RECEIVERS } from '../../src/exports/delivery.js';

/** The deliveries of one receiver. RPC: {@link take}; the alarm runs them. */
export class WebhookLaneDO extends DurableObject<Bindings> implements WebhookLaneRpc {
  protected readonly lane: DeliveryLane;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    applyLogLevel(env);
    // Deliveries to the tenant's OTLP export are made by its receiver (src/exports/delivery.ts).
    this.lane = new DeliveryLane(ctx.storage, env, (e, id) => attemptDelivery(e, id, Date.now(), OTLP_RECEIVERS));
  }

  /** Makes deliveries `ids` due now (src/webhooks/lane.ts). */
  take(ids: readonly string[]): Promise<void> {
    return this.lane.take(ids);
  }

  /** Runs the due deliveries. */
  override alarm(): Promise<void> {
    return this.lane.run();
  }
}
