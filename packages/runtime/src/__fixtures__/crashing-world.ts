import type { World } from "@little-stack/local-world";

/**
 * A world that "dies" once `survivingEvents` events of the run are stored: later appends throw
 * and store nothing, as if the process had been killed right there. Resume by running against
 * the inner world.
 */
export function crashingWorld(inner: World, survivingEvents: number): World {
  let stored = 0;
  const world: World = Object.create(inner) as World;
  return Object.assign(world, {
    appendEvents: async (runId: string, events: Parameters<World["appendEvents"]>[1]) => {
      const count = Array.isArray(events) ? events.length : 1;
      if (stored + count > survivingEvents) throw new Error("simulated crash: the process died before this append");
      stored += count;
      return inner.appendEvents(runId, events);
    },
    listEvents: inner.listEvents.bind(inner),
    writeArtifact: inner.writeArtifact.bind(inner),
    readArtifactJson: inner.readArtifactJson.bind(inner),
    acquireRunLock: inner.acquireRunLock.bind(inner),
    maxConcurrentSteps: inner.maxConcurrentSteps,
    paths: inner.paths,
  });
}
