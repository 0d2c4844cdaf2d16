/** The provider gate's RPCs counted, for the tests of what an evaluation's attempts cost the gate. */
import type { ProviderGateObject } from '../../src/provider-gate/worker-gate.js';
import { testEnv } from './helpers.js';

/** The deployment's gate namespace, with every RPC to a gate object counted by method. */
export function countedGates(
  env: { PROVIDER_CONCURRENCY_MAX?: string; PROVIDER_CONCURRENCY_START?: string; PROVIDER_GATE_REUSE_MS?: string } = {},
) {
  const calls: string[] = [];
  const ns = testEnv.PROVIDER_GATE;
  const namespace = {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = ns.get(id);
      return new Proxy(stub, {
        get(target, prop) {
          const value = Reflect.get(target, prop) as unknown;
          if (typeof prop !== 'string' || !['acquire', 'release', 'exchange'].includes(prop)) return value;
          return (...args: unknown[]) => {
            calls.push(prop);
            // A stub's method is itself a stub (`.apply` would be a remote property): call it through the stub.
            return (target as unknown as Record<string, (...a: unknown[]) => unknown>)[prop]?.(...args);
          };
        },
      });
    },
  } as unknown as DurableObjectNamespace<ProviderGateObject>;
  return { env: { ...testEnv, ...env, PROVIDER_GATE: namespace }, calls };
}
