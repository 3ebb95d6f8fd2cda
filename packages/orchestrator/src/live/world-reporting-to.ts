import type { World } from "@little-stack/local-world";
import type { RunEventDispatcher } from "@little-stack/runtime";

/**
 * The world as the compiler, the outer loop and the orchestrator session see it while someone
 * watches: what they append is handed to the watcher once stored. The runtime reports its own
 * commits (RunLog); the dispatcher drops what it has delivered already. A run first appended to
 * here whose earlier events were never delivered (a cycle or sub-run resumed mid-compile) gets
 * them first, read back and flagged as replayed, so nothing recorded is skipped.
 */
export function worldReportingTo(world: World, watcher: RunEventDispatcher): World {
  const reporting = new Proxy(world, {
    get(target, property, receiver) {
      if (property === "appendEvents") {
        return async (runId: string, events: Parameters<World["appendEvents"]>[1], options?: Parameters<World["appendEvents"]>[2]) => {
          const stored = await target.appendEvents(runId, events, options);
          const first = stored[0]?.sequence;
          if (first !== undefined && watcher.deliveredThrough(runId) < first - 1) {
            const earlier = await target.listEvents(runId, { afterSequence: watcher.deliveredThrough(runId) });
            watcher.committed(earlier.filter((event) => event.sequence < first), { replayed: true });
          }
          watcher.committed(stored, { replayed: false });
          return stored;
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  reportedWorlds.set(reporting, world);
  return reporting;
}

const reportedWorlds = new WeakMap<World, World>();

/**
 * The world under a reporting one (or the world itself): for the runtime, which reports its own
 * commits to the same watcher (and a resumed run's stored events when it opens the log), so its
 * appends need not go through the proxy, an extra await each, to be offered to the watcher twice.
 */
export function unreportedWorld(world: World): World {
  return reportedWorlds.get(world) ?? world;
}
