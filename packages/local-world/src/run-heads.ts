import { closeSync, openSync, readdirSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";

/** The last event a run is known to have committed: its sequence and id. */
export type RunHead = { readonly sequence: number; readonly eventId: string };

/** What a run's head file says. */
export type HeadReading =
  | { readonly kind: "absent" }
  | { readonly kind: "head"; readonly head: RunHead }
  | { readonly kind: "damaged"; readonly problem: string };

/**
 * Per-run commit records, kept outside `events.db` and its WAL: `events/heads/<runId>`. After
 * every commit of a run the world writes the run's last sequence and event id here, so a log that
 * lost committed events (a deleted, truncated or damaged `-wal`, a replaced `events.db`) is told
 * apart from a log that never had them.
 *
 * The record is written after the commit (never ahead of it) and is a lower bound: a kill, an OS
 * crash or a concurrent appender can leave it behind the log, never in front. It is not fsynced:
 * against a power loss it may lag or vanish, which only weakens the check, never fails a sound log.
 *
 * Layout: 128 bytes, two 64-byte slots written alternately, each `lw-head <sequence> <eventId>
 * <crc32>` padded with spaces. A write torn by a crash damages at most the slot being written; the
 * reader takes the valid slot with the higher sequence. A file with no valid slot was damaged.
 */
export class RunHeads {
  readonly #folder: string;
  /** Open head files of runs this connection appends to, oldest use first (bounded). */
  readonly #open = new Map<string, { fd: number; nextSlot: number }>();

  constructor(folder: string) {
    this.#folder = folder;
  }

  pathOf(runId: string): string {
    return join(this.#folder, runId);
  }

  /** The run's head as stored now. */
  read(runId: string): HeadReading {
    let reading: HeadReading = { kind: "absent" };
    // A reader can catch a concurrent appender mid-write in both slots at once only by a
    // vanishingly small chance; a second look tells that from damage.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const bytes = readHeadFile(this.pathOf(runId));
      reading = bytes === undefined ? { kind: "absent" } : parseHeadFile(bytes).reading;
      if (reading.kind !== "damaged") return reading;
    }
    return reading;
  }

  /**
   * Opens (creating, blank) the run's head file before the run's first append on this connection,
   * so a data dir where it cannot be created fails before anything is stored. Returns the head.
   */
  prepare(runId: string): HeadReading {
    const cached = this.#open.get(runId);
    if (cached !== undefined) {
      this.#open.delete(runId);
      this.#open.set(runId, cached);
      return this.read(runId);
    }
    const path = this.pathOf(runId);
    let fd: number;
    try {
      fd = openSync(path, "r+");
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ENOENT") throw error;
      try {
        fd = openSync(path, "wx+", 0o644);
        writeSync(fd, Buffer.alloc(fileBytes, 0x20), 0, fileBytes, 0);
      } catch (creating) {
        if ((creating as { code?: unknown }).code !== "EEXIST") throw creating;
        fd = openSync(path, "r+");
      }
    }
    const bytes = Buffer.alloc(fileBytes);
    const length = readSync(fd, bytes, 0, fileBytes, 0);
    const parsed = parseHeadFile(bytes.subarray(0, length));
    this.#open.set(runId, { fd, nextSlot: parsed.olderSlot });
    while (this.#open.size > maxOpenHeads) {
      const [oldest, entry] = this.#open.entries().next().value as [string, { fd: number }];
      this.#open.delete(oldest);
      closeSync(entry.fd);
    }
    return parsed.reading;
  }

  /**
   * Records a commit. The events are stored already, so a failure here is not the append's: the
   * record stays behind the log (the safe direction) and the next commit tries again.
   */
  record(runId: string, head: RunHead): void {
    const entry = this.#open.get(runId);
    if (entry === undefined) return;
    try {
      writeSync(entry.fd, encodeSlot(head), 0, slotBytes, entry.nextSlot * slotBytes);
      entry.nextSlot = 1 - entry.nextSlot;
    } catch {
      // See above: a lagging record only weakens the check.
    }
  }

  /** Run ids that have a head file (whether or not their events are still in the log). */
  runIds(isRunId: (name: string) => boolean): string[] {
    try {
      return readdirSync(this.#folder).filter(isRunId).sort();
    } catch {
      return [];
    }
  }

  close(): void {
    for (const { fd } of this.#open.values()) {
      try {
        closeSync(fd);
      } catch {
        // Closing is best effort.
      }
    }
    this.#open.clear();
  }
}

const slotBytes = 64;
const fileBytes = 2 * slotBytes;
const maxOpenHeads = 64;
const slotPattern = /^lw-head (\d{1,16}) (evt_[0-9a-f]{16}) ([0-9a-f]{8}) *\n$/;

function slotChecksum(head: RunHead): string {
  return crc32(`${head.sequence} ${head.eventId}`).toString(16).padStart(8, "0");
}

function encodeSlot(head: RunHead): Buffer {
  const text = `lw-head ${head.sequence} ${head.eventId} ${slotChecksum(head)}`;
  return Buffer.from(`${text.padEnd(slotBytes - 1, " ")}\n`, "latin1");
}

type Slot = { readonly kind: "blank" } | { readonly kind: "valid"; readonly head: RunHead } | { readonly kind: "invalid" };

function parseSlot(bytes: Buffer): Slot {
  if (bytes.length === 0 || bytes.every((byte) => byte === 0x20)) return { kind: "blank" };
  const match = slotPattern.exec(bytes.toString("latin1"));
  if (match === null) return { kind: "invalid" };
  const head = { sequence: Number(match[1]), eventId: match[2]! };
  return head.sequence >= 1 && slotChecksum(head) === match[3] ? { kind: "valid", head } : { kind: "invalid" };
}

/** The reading of a head file's bytes, and the slot the next write should replace. */
function parseHeadFile(bytes: Buffer): { readonly reading: HeadReading; readonly olderSlot: number } {
  const slots = [parseSlot(bytes.subarray(0, slotBytes)), parseSlot(bytes.subarray(slotBytes, fileBytes))];
  const valid = slots.flatMap((slot, index) => (slot.kind === "valid" ? [{ index, head: slot.head }] : []));
  if (valid.length === 0) {
    const blank = slots.every((slot) => slot.kind === "blank");
    return {
      reading: blank ? { kind: "absent" } : { kind: "damaged", problem: "neither of its two slots holds a valid record" },
      olderSlot: slots[0]!.kind === "valid" ? 1 : 0,
    };
  }
  const newest = valid.reduce((best, slot) => (slot.head.sequence > best.head.sequence ? slot : best));
  return { reading: { kind: "head", head: newest.head }, olderSlot: 1 - newest.index };
}

function readHeadFile(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const bytes = Buffer.alloc(fileBytes);
    const length = readSync(fd, bytes, 0, fileBytes, 0);
    return bytes.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
