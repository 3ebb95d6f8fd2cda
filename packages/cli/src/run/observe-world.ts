import type { EventEnvelope, World } from "@little-stack/local-world";

/**
 * A World that forwards every call to `world` and, after each successful append, hands the stored
 * envelopes to `onAppended`. The runtime has no progress callback; watching what it makes durable
 * shows exactly what happened, in order, and nothing that was not recorded.
 */
export function observeWorld(world: World, onAppended: (events: readonly EventEnvelope[]) => void): World {
  return {
    async appendEvents(runId, events) {
      const stored = await world.appendEvents(runId, events);
      onAppended(stored);
      return stored;
    },
    listEvents: (runId, options) => world.listEvents(runId, options),
    listRuns: () => world.listRuns(),
    getRun: (runId) => world.getRun(runId),
    writeArtifact: (input) => world.writeArtifact(input),
    readArtifact: (artifactId) => world.readArtifact(artifactId),
    readArtifactText: (artifactId) => world.readArtifactText(artifactId),
    readArtifactJson: (artifactId) => world.readArtifactJson(artifactId),
    getArtifactManifest: (artifactId) => world.getArtifactManifest(artifactId),
    acquireRunLock: (runId) => world.acquireRunLock(runId),
    readOuterLoopManifest: (outerLoopId) => world.readOuterLoopManifest(outerLoopId),
    writeOuterLoopManifest: (outerLoopId, manifest) => world.writeOuterLoopManifest(outerLoopId, manifest),
    get paths() {
      return world.paths;
    },
    get maxConcurrentSteps() {
      return world.maxConcurrentSteps;
    },
    close: () => world.close(),
  };
}
