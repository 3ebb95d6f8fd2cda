import { crc32 } from "node:zlib";
import { EventLogCorruptError } from "./event-log-errors.js";
import { envelopeOf, eventIdFor } from "./event-envelope.js";
import type { EventEnvelope } from "./world.js";

/** The stored check of what an event id does not cover: the time, bound to the id. */
export function recordedAtCheck(eventId: string, recordedAt: string): number {
  return crc32(`${eventId} ${recordedAt}`);
}

/**
 * Re-derives a stored event's id from its run, sequence, type and payload text, and its row check
 * from its id and time: a row changed behind the world's back (a flipped bit, an edit, a page of
 * another version) is refused, naming the run and sequence, instead of being served as history.
 * Rows written before row checks existed (`rowCheck` null) are verified by their id alone.
 */
export function verifyStoredEvent(options: {
  readonly path: string;
  readonly runId: string;
  readonly row: readonly [sequence: number, eventId: string, type: string, recordedAt: string, payloadJson: string, rowCheck: number | null];
}): EventEnvelope {
  const { path, runId } = options;
  const [sequence, eventId, type, recordedAt, payloadJson, rowCheck] = options.row;
  const where = { runId, sequence };
  const computed = eventIdFor({ runId, sequence, type, payloadJson });
  if (computed !== eventId) {
    throw new EventLogCorruptError(
      path,
      `the event does not hash to its id (stored ${JSON.stringify(eventId)}, its content hashes to ${computed}): its type, payload or id was changed after it was committed`,
      undefined,
      where,
    );
  }
  if (rowCheck !== null && rowCheck !== recordedAtCheck(eventId, recordedAt)) {
    throw new EventLogCorruptError(path, `its recorded time ${JSON.stringify(recordedAt)} was changed after it was committed (row check mismatch)`, undefined, where);
  }
  return envelopeOf({
    eventId,
    runId,
    sequence,
    type,
    recordedAt,
    payloadJson,
    onUnparsable: (error) =>
      new EventLogCorruptError(path, `its payload is not JSON (${error instanceof Error ? error.message : String(error)})`, error, where),
  });
}
