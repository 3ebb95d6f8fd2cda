import { LittleWorkflowError } from "@little-stack/canonical";
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ArtifactIntegrityError, ArtifactNotFoundError } from "./artifact-errors.js";
import { decodeArtifactJson, decodeArtifactText, encodeArtifact, verifyArtifact } from "./artifact-content.js";
import { writeFileAtomicallySync, writeFileDurably } from "./durable-file.js";
import { deferredEventList } from "./deferred-event-lists.js";
import { resolveDurability, type Durability } from "./durability.js";
import { prepareEvents } from "./event-envelope.js";
import { requireDurable } from "./append-durability.js";
import { LeaseLostError, requireFence } from "./lease-errors.js";
import { requireArtifactId, requireOuterLoopId, requireRunId } from "./identifiers.js";
import type { JsonObject } from "./json-value.js";
import { resolveListEventsOptions } from "./list-events-options.js";
import { serializeOuterLoopManifest } from "./outer-loop-manifest.js";
import { OuterLoopManifestCorruptError } from "./outer-loop-manifest-errors.js";
import { removeStaleTempFiles } from "./stale-temp-files.js";
import { openSqliteEventLog } from "./sqlite-event-log.js";
import { type SqliteRunLocks, sqliteRunLocks } from "./sqlite-run-locks.js";
import type { ArtifactManifest, EventEnvelope, RunLock, StoredArtifact, World, WorldPaths } from "./world.js";
import { DataDirNotWritableError, DataDirWriteError, UnknownRunError, WorldClosedError, WorldReadOnlyError } from "./world-errors.js";
import { resolveDataDir, resolveMaxConcurrentSteps } from "./world-options.js";
import { worldPaths } from "./world-paths.js";

export type LocalWorldOptions = {
  /** Default `.little-workflow` (relative to the current directory). */
  readonly dataDir?: string;
  /** Cap on in-flight step attempts across all parallel groups. Default 8. */
  readonly maxConcurrentSteps?: number;
  /** Default `"strict"`. See `Durability`. */
  readonly durability?: Durability;
  /**
   * Open an existing data dir for reading only (what `little events` / `replay` / `runs` do):
   * nothing is created or written — SQLite may add its `-shm` index (and an empty `-wal`) beside
   * `events.db`, as any reader of a WAL database does — and every write or lock is refused with
   * `WorldReadOnlyError`. A data dir without `events/events.db` is an `InvalidDataDirError`.
   */
  readonly readOnly?: boolean;
};

/** The local world's own paths, beside the shared roots. */
export type LocalWorldPaths = WorldPaths & {
  /** `<dataDir>/events/events.db` (SQLite, WAL). */
  readonly eventsDb: string;
  /** `<dataDir>/artifacts` with `<art_id>.json` manifests. */
  readonly artifacts: string;
  /** `<dataDir>/artifacts/blobs/<art_id>`. */
  readonly artifactBlobs: string;
  /** `<dataDir>/locks/<runId>/owner.json`. */
  readonly locks: string;
  /** `<dataDir>/outer-loops/<outerLoopId>.json`. */
  readonly outerLoops: string;
  /** `<dataDir>/events/heads/<runId>`: each run's commit record (its last committed sequence and event id). */
  readonly heads: string;
};

export type LocalWorld = World & {
  readonly durability: Durability;
  readonly paths: LocalWorldPaths;
  /** The effective SQLite settings of this world's connection, for checks and diagnostics. */
  storageSettings(): {
    readonly journalMode: string;
    readonly synchronous: "FULL" | "NORMAL" | "OFF" | "EXTRA";
    /** True in strict mode: the world fdatasyncs the WAL after each commit (after its commit record). */
    readonly syncedAtCommit: boolean;
  };
  /**
   * Every run id with a commit record, including runs whose events the log has lost (those are
   * not in `listRuns()`; reading them throws `EventLogCorruptError`). For listings that must
   * show damaged runs too.
   */
  recordedRunIds(): Promise<string[]>;
};

const synchronousNames = ["OFF", "NORMAL", "FULL", "EXTRA"] as const;

/**
 * A world on the local disk: SQLite (WAL) for events and run locks, files for artifacts and
 * outer-loop manifests. Opens synchronously; a data dir that cannot be written throws
 * `DataDirNotWritableError`, a damaged `events.db` throws `EventLogCorruptError`, before
 * anything is written to it.
 */
export function localWorld(options: LocalWorldOptions = {}): LocalWorld {
  const durability = resolveDurability(options.durability);
  const maxConcurrentSteps = resolveMaxConcurrentSteps(options.maxConcurrentSteps);
  const shared = worldPaths(resolveDataDir(options.dataDir));
  const paths: LocalWorldPaths = {
    ...shared,
    eventsDb: join(shared.dataDir, "events", "events.db"),
    artifacts: join(shared.dataDir, "artifacts"),
    artifactBlobs: join(shared.dataDir, "artifacts", "blobs"),
    locks: join(shared.dataDir, "locks"),
    outerLoops: join(shared.dataDir, "outer-loops"),
    heads: join(shared.dataDir, "events", "heads"),
  };
  const readOnly = options.readOnly === true;
  if (!readOnly) {
    for (const folder of [join(shared.dataDir, "events"), paths.heads, paths.artifactBlobs, paths.locks, paths.outerLoops]) {
      ensureWritableFolder(folder);
    }
  }
  const eventLog = openSqliteEventLog({ path: paths.eventsDb, durability, headsDir: paths.heads, readOnly });
  // Temp files of writers killed mid-write are never read; clear them (lock mirrors are cleaned
  // when their lock is recovered or released).
  if (!readOnly) removeStaleTempFiles([paths.artifacts, paths.artifactBlobs, paths.outerLoops]);
  const writableLocks = readOnly ? undefined : sqliteRunLocks(eventLog);
  const sync = durability === "strict";
  const heldLocks = new Map<string, RunLock>();
  /** A process lock is lost only when its world closes under it (see `close`). */
  const lockSignals = new Map<string, { controller: AbortController; runId: string; fence: number }>();
  let closed = false;

  /**
   * A deferred list read after `close()`: from a read-only connection opened for that read (and
   * closed after it), so closing reads nothing (the runtime defers the result of every long run,
   * and reading each at close cost ~120 µs per step of the run, held or not). The log as it is at
   * that read, with the usual checks (a row damaged since is refused); a data dir removed since
   * gives the open's error, naming the file.
   */
  function listAfterClose(runId: string, resolved: ReturnType<typeof resolveListEventsOptions>): EventEnvelope[] {
    const reader = openSqliteEventLog({ path: paths.eventsDb, durability, headsDir: paths.heads, readOnly: true });
    try {
      return reader.list(runId, resolved);
    } finally {
      reader.close();
    }
  }

  function open(operation: string): void {
    if (closed) throw new WorldClosedError(operation);
  }

  /** Like `open`, for operations that write: refused on a read-only world. */
  function writable(operation: string): SqliteRunLocks {
    open(operation);
    if (writableLocks === undefined) throw new WorldReadOnlyError(operation);
    return writableLocks;
  }

  async function read(artifactId: string): Promise<StoredArtifact> {
    requireArtifactId(artifactId);
    const manifestPath = join(paths.artifacts, `${artifactId}.json`);
    const manifestText = await readOptional(manifestPath);
    if (manifestText === undefined) throw new ArtifactNotFoundError(artifactId);
    let manifest: unknown;
    try {
      manifest = JSON.parse(manifestText);
    } catch {
      throw new ArtifactIntegrityError(artifactId, `its manifest ${manifestPath} is not JSON`);
    }
    const blobPath = join(paths.artifactBlobs, artifactId);
    const bytes = await readOptionalBytes(blobPath);
    if (bytes === undefined) throw new ArtifactIntegrityError(artifactId, `its bytes are missing (${blobPath})`);
    return { manifest: verifyArtifact(artifactId, manifest, bytes), bytes };
  }

  async function alreadyStored(manifest: ArtifactManifest): Promise<boolean> {
    try {
      await read(manifest.id);
      return true;
    } catch (error) {
      // Absent or damaged: (re)write it. The content is addressed by its id, so rewriting heals.
      if (error instanceof ArtifactNotFoundError || error instanceof ArtifactIntegrityError) return false;
      throw error;
    }
  }

  // The lock mirror is written and removed with synchronous calls (as SQLite is used here): each
  // asynchronous step was a round trip to the thread pool, and a run takes two locks.
  async function writeOwnerFile(lock: { runId: string; owner: object }): Promise<void> {
    const folder = join(paths.locks, lock.runId);
    mkdirSync(folder, { recursive: true });
    // Never fsynced: a mirror for people and tools, the lock row being the truth; after a machine
    // crash the process it names is gone and the next acquire recovers the row. Atomic (rename)
    // all the same, so a reader never sees half of it. Saves four fsyncs per strict run.
    writeFileAtomicallySync(join(folder, "owner.json"), `${JSON.stringify(lock.owner, null, 2)}\n`);
  }

  async function removeOwnerFile(runId: string, token: string): Promise<void> {
    const file = join(paths.locks, runId, "owner.json");
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return;
      throw error;
    }
    try {
      if ((JSON.parse(text) as { token?: unknown }).token !== token) return;
    } catch {
      // A damaged mirror of our own lock: remove it.
    }
    try {
      unlinkSync(file);
      rmdirSync(join(paths.locks, runId));
    } catch {
      // Best effort: gone already, or another lock's mirror was written into the folder since.
    }
  }

  return {
    paths,
    durability,
    maxConcurrentSteps,

    async appendEvents(runId, events, appendOptions) {
      const locks = writable("append events");
      requireRunId(runId);
      const fence = requireFence(appendOptions);
      const durable = requireDurable(appendOptions);
      const prepared = prepareEvents(runId, events);
      if (fence === undefined) return eventLog.append(runId, prepared, { durable });
      // The check and the insert share one IMMEDIATE transaction: SQLite serializes it against
      // every other writer of the file, so no acquisition can slip in between.
      return eventLog.immediate(
        "append fenced events",
        () => {
          if (!locks.holdsFence(runId, fence)) {
            throw new LeaseLostError({ runId, fence, reason: "that lock was released or another holder has acquired the run since" });
          }
          return eventLog.append(runId, prepared, { durable });
        },
        { sync: durable },
      );
    },

    async listEvents(runId, listOptions) {
      open("list events");
      requireRunId(runId);
      return eventLog.list(runId, resolveListEventsOptions(listOptions));
    },

    async deferListEvents(runId, listOptions) {
      open("list events");
      requireRunId(runId);
      const resolved = resolveListEventsOptions(listOptions);
      // SQLite is read synchronously: nothing is read (or verified) until the first read().
      return deferredEventList(() => (closed ? listAfterClose(runId, resolved) : eventLog.list(runId, resolved)));
    },

    async listRuns() {
      open("list runs");
      return eventLog.listRuns();
    },

    async getRun(runId) {
      open("get a run");
      requireRunId(runId);
      return eventLog.getRun(runId);
    },

    async writeArtifact(input) {
      writable("write an artifact");
      const { manifest, bytes } = encodeArtifact(input);
      if (!eventLog.hasRun(manifest.runId)) throw new UnknownRunError(manifest.runId, "writing an artifact");
      if (await alreadyStored(manifest)) return manifest;
      // Bytes first, manifest second: a manifest on disk always has its bytes beside it.
      await writeFileDurably({ path: join(paths.artifactBlobs, manifest.id), data: bytes, sync });
      await writeFileDurably({
        path: join(paths.artifacts, `${manifest.id}.json`),
        data: `${JSON.stringify(manifest, null, 2)}\n`,
        sync,
      });
      return manifest;
    },

    async readArtifact(artifactId) {
      open("read an artifact");
      return read(artifactId);
    },

    async readArtifactText(artifactId) {
      open("read an artifact");
      const { manifest, bytes } = await read(artifactId);
      return decodeArtifactText(manifest, bytes);
    },

    async readArtifactJson(artifactId) {
      open("read an artifact");
      const { manifest, bytes } = await read(artifactId);
      return decodeArtifactJson(manifest, bytes);
    },

    async getArtifactManifest(artifactId) {
      open("read an artifact manifest");
      try {
        return (await read(artifactId)).manifest;
      } catch (error) {
        if (error instanceof ArtifactNotFoundError) return undefined;
        throw error;
      }
    },

    async acquireRunLock(runId) {
      const locks = writable("acquire a run lock");
      requireRunId(runId);
      const { owner, recoveredFrom } = locks.acquire(runId);
      try {
        await writeOwnerFile({ runId, owner });
      } catch (error) {
        locks.release(runId, owner.token);
        throw LittleWorkflowError.is(error) ? error : new DataDirNotWritableError(join(paths.locks, runId), error);
      }
      let released = false;
      const lost = new AbortController();
      const lock: RunLock = {
        runId,
        token: owner.token,
        pid: owner.pid,
        acquiredAt: owner.acquiredAt,
        fence: owner.fence,
        holder: `${owner.hostname}:${owner.pid}`,
        signal: lost.signal,
        ...(recoveredFrom === undefined ? {} : { recoveredFrom }),
        async release() {
          if (released) return;
          released = true;
          heldLocks.delete(owner.token);
          lockSignals.delete(owner.token);
          // The mirror goes first: once the row is deleted another process may write its own.
          await removeOwnerFile(runId, owner.token);
          locks.release(runId, owner.token);
        },
      };
      heldLocks.set(owner.token, lock);
      lockSignals.set(owner.token, { controller: lost, runId, fence: owner.fence });
      return lock;
    },

    async readOuterLoopManifest(outerLoopId) {
      open("read an outer-loop manifest");
      requireOuterLoopId(outerLoopId);
      const path = join(paths.outerLoops, `${outerLoopId}.json`);
      const text = await readOptional(path);
      if (text === undefined) return undefined;
      let manifest: unknown;
      try {
        manifest = JSON.parse(text);
      } catch (error) {
        throw new OuterLoopManifestCorruptError(outerLoopId, path, error);
      }
      if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
        throw new OuterLoopManifestCorruptError(outerLoopId, path);
      }
      return manifest as JsonObject;
    },

    async writeOuterLoopManifest(outerLoopId, manifest) {
      writable("write an outer-loop manifest");
      requireOuterLoopId(outerLoopId);
      const text = serializeOuterLoopManifest(outerLoopId, manifest);
      await writeFileDurably({ path: join(paths.outerLoops, `${outerLoopId}.json`), data: `${text}\n`, sync });
    },

    async recordedRunIds() {
      open("list recorded runs");
      return eventLog.recordedRunIds();
    },

    storageSettings() {
      open("read storage settings");
      const { journalMode, synchronous } = eventLog.pragmas();
      return { journalMode, synchronous: synchronousNames[synchronous] ?? "OFF", syncedAtCommit: durability === "strict" };
    },

    async close() {
      if (closed) return;
      // Locks still held by this world are given back: the process may live on, and a live
      // holder's lock would otherwise never be recovered. Whoever still works under one is told.
      for (const { controller, runId, fence } of lockSignals.values()) {
        controller.abort(new LeaseLostError({ runId, fence, reason: "the world holding the lock was closed" }));
      }
      for (const lock of [...heldLocks.values()]) await lock.release();
      closed = true;
      eventLog.close();
    },
  };
}

function ensureWritableFolder(folder: string): void {
  try {
    makeFolders(folder);
    accessSync(folder, constants.W_OK);
  } catch (error) {
    const reason = explainUnwritable(folder, error);
    throw (reason as { code?: unknown }).code === "ENOSPC" ? new DataDirWriteError(folder, reason) : new DataDirNotWritableError(folder, reason);
  }
}

/**
 * `mkdir -p`, one folder at a time from the deepest existing ancestor down. Not Node's recursive
 * mkdirSync: on procfs (`/proc/self/x`) a parent answers EEXIST while the child answers ENOENT,
 * and Node's loop retries that pair forever at 100% CPU. Here each folder is tried once.
 */
function makeFolders(folder: string): void {
  const missing: string[] = [];
  let current = resolve(folder);
  while (!existsSync(current)) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST") throw error;
    }
  }
  if (!statSync(folder).isDirectory()) throw Object.assign(new Error(`${folder} is not a directory`), { code: "ENOTDIR" });
}

/**
 * A recursive mkdir on read-only storage reports ENOENT for the missing folder; the useful reason
 * (EROFS, EACCES, ENOTDIR) is found by asking the deepest folder that does exist.
 */
function explainUnwritable(folder: string, error: unknown): unknown {
  if ((error as { code?: unknown }).code !== "ENOENT") return error;
  let ancestor = dirname(folder);
  while (!existsSync(ancestor) && dirname(ancestor) !== ancestor) ancestor = dirname(ancestor);
  try {
    accessSync(ancestor, constants.W_OK);
  } catch (reason) {
    return reason;
  }
  return error;
}

async function readOptional(path: string): Promise<string | undefined> {
  const bytes = await readOptionalBytes(path);
  return bytes === undefined ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

async function readOptionalBytes(path: string): Promise<Uint8Array | undefined> {
  try {
    const buffer = await readFile(path);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw error;
  }
}
