import { LeaseLostError, type RunLock, type World } from "@little-stack/local-world";

/**
 * The world as the runtime sees it while a worker holds a run's lease: every append to that run
 * names the lease's fence (so the storage refuses it once the lease is lost), appends stop
 * locally the instant the lease's signal aborts (the storage may still believe the lease valid
 * when the holder gave it up for lack of contact — nothing may reach it then, not even the
 * runtime recording its own cancellation), and the runtime's `acquireRunLock` for that run gets
 * the worker's lease instead of a second acquisition. The worker releases the lease itself.
 */
export function worldHeldBy(world: World, lock: RunLock): World {
  const { runId, fence, signal } = lock;
  const lost = (): LeaseLostError =>
    LeaseLostError.is(signal.reason, "world.lease_lost")
      ? (signal.reason as LeaseLostError)
      : new LeaseLostError({ runId, fence, reason: "the worker gave the lease up" });
  const borrowed: RunLock = {
    runId,
    token: lock.token,
    pid: lock.pid,
    acquiredAt: lock.acquiredAt,
    fence,
    holder: lock.holder,
    signal,
    get expiresAt() {
      return lock.expiresAt;
    },
    ...(lock.recoveredFrom === undefined ? {} : { recoveredFrom: lock.recoveredFrom }),
    // The worker owns the lease: the runtime's release at the end of the run is a no-op.
    release: async () => undefined,
  };
  return new Proxy(world, {
    get(target, property, receiver) {
      if (property === "appendEvents") {
        return (appendRunId: string, events: Parameters<World["appendEvents"]>[1], options?: Parameters<World["appendEvents"]>[2]) => {
          if (appendRunId !== runId) return target.appendEvents(appendRunId, events, options);
          if (signal.aborted) return Promise.reject(lost());
          return target.appendEvents(appendRunId, events, { ...options, fence });
        };
      }
      if (property === "acquireRunLock") {
        return (lockRunId: string) => (lockRunId === runId ? Promise.resolve(borrowed) : target.acquireRunLock(lockRunId));
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
