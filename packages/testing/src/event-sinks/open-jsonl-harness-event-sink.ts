import { open, readFile, truncate } from "node:fs/promises";
import { createEventEnvelope, type HarnessEventEnvelope, type HarnessEventSink } from "@little-stack/harness";

/**
 * A durable event sink in one append-only JSONL file: one envelope per line, `fsync` after every
 * append, so whatever `append` resolved survives a SIGKILL. A torn last line (the process died
 * mid-write) is cut off when the file is opened again. One writer process at a time.
 */
export async function openJsonlHarnessEventSink(options: { readonly filePath: string; readonly runId: string }): Promise<HarnessEventSink> {
  const { filePath, runId } = options;
  const events = await readEvents(filePath);
  let lastSequence = events.filter((event) => event.runId === runId).reduce((last, event) => Math.max(last, event.sequence), 0);
  let queue: Promise<unknown> = Promise.resolve();
  const append = async (batch: readonly { type: string; payload: unknown }[]): Promise<HarnessEventEnvelope[]> => {
    const stored = batch.map((event, index) =>
      createEventEnvelope({ runId, sequence: lastSequence + index + 1, type: event.type, payload: event.payload }),
    );
    const handle = await open(filePath, "a");
    try {
      await handle.write(stored.map((event) => `${JSON.stringify(event)}\n`).join(""));
      await handle.sync();
    } finally {
      await handle.close();
    }
    lastSequence += stored.length;
    return stored;
  };
  return {
    runId,
    append(batch) {
      // Appends are serialized: concurrent tool calls must not interleave sequence numbers.
      const result = queue.then(() => append(batch));
      queue = result.catch(() => undefined);
      return result;
    },
    async list(listOptions) {
      const after = listOptions?.afterSequence ?? 0;
      return (await readEvents(filePath)).filter((event) => event.runId === runId && event.sequence > after && event.type.startsWith("harness."));
    },
  };
}

async function readEvents(filePath: string): Promise<HarnessEventEnvelope[]> {
  let text: string;
  try {
    text = await readFile(filePath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const complete = text.endsWith("\n") ? text : text.slice(0, text.lastIndexOf("\n") + 1);
  if (complete.length !== text.length) await truncate(filePath, Buffer.byteLength(complete));
  return complete
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as HarnessEventEnvelope);
}
