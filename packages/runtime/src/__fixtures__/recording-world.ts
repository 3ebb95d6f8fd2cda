import type { World } from "@little-stack/local-world";

/** One `appendEvents` call (one transaction): the types and step paths of what it stored. */
export type RecordedTransaction = readonly { readonly type: string; readonly stepPath: string | undefined }[];

/**
 * A world that records every append batch, to show which events were committed together, and
 * whether each was asked to be durable (`durable[i]` is transaction i's; false for `durable: false`).
 */
export function recordingWorld(inner: World): { world: World; transactions: RecordedTransaction[]; durable: boolean[] } {
  const transactions: RecordedTransaction[] = [];
  const durable: boolean[] = [];
  const world: World = Object.create(inner) as World;
  Object.assign(world, {
    appendEvents: async (runId: string, events: Parameters<World["appendEvents"]>[1], options?: Parameters<World["appendEvents"]>[2]) => {
      const stored = await inner.appendEvents(runId, events, options);
      const list = (Array.isArray(stored) ? stored : [stored]) as readonly { type: string; payload: unknown }[];
      transactions.push(list.map((event) => ({ type: event.type, stepPath: (event.payload as { stepPath?: string } | null)?.stepPath })));
      durable.push(options?.durable !== false);
      return stored;
    },
    listEvents: inner.listEvents.bind(inner),
    writeArtifact: inner.writeArtifact.bind(inner),
    readArtifactJson: inner.readArtifactJson.bind(inner),
    acquireRunLock: inner.acquireRunLock.bind(inner),
    maxConcurrentSteps: inner.maxConcurrentSteps,
    paths: inner.paths,
  });
  return { world, transactions, durable };
}
