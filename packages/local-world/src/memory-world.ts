import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactNotFoundError } from "./artifact-errors.js";
import { decodeArtifactJson, decodeArtifactText, encodeArtifact, verifyArtifact } from "./artifact-content.js";
import { deferredEventList } from "./deferred-event-lists.js";
import { envelopeOf, eventIdFor, prepareEvents } from "./event-envelope.js";
import { requireDurable } from "./append-durability.js";
import { LeaseLostError, requireFence } from "./lease-errors.js";
import { requireArtifactId, requireOuterLoopId, requireRunId } from "./identifiers.js";
import type { JsonObject } from "./json-value.js";
import { resolveListEventsOptions } from "./list-events-options.js";
import { serializeOuterLoopManifest } from "./outer-loop-manifest.js";
import { isoNow } from "./recorded-at.js";
import { RunLockedError } from "./run-lock-errors.js";
import type {
  ArtifactManifest,
  EventEnvelope,
  RunLock,
  RunLockOwner,
  RunSummary,
  StoredArtifact,
  World,
} from "./world.js";
import { UnknownRunError, WorldClosedError } from "./world-errors.js";
import { resolveDataDir, resolveMaxConcurrentSteps } from "./world-options.js";
import { worldPaths } from "./world-paths.js";

export type MemoryWorldOptions = {
  /**
   * Root for the file-based stores (memory, run scratch, skills cache) that other packages
   * create on disk. Nothing is written there by the world itself. Defaults to a fresh,
   * not-yet-created folder under the OS temp dir.
   */
  readonly dataDir?: string;
  /** Default 8. */
  readonly maxConcurrentSteps?: number;
};

type StoredEvent = {
  readonly eventId: string;
  readonly sequence: number;
  readonly type: string;
  readonly recordedAt: string;
  readonly payloadJson: string;
};

/**
 * The `World` contract in memory: events, artifacts, locks and outer-loop manifests live in this
 * process and vanish with it. For tests and ephemeral runs. Payloads are stored as canonical JSON
 * text and every read returns fresh copies, exactly like `localWorld()`.
 */
export function memoryWorld(options: MemoryWorldOptions = {}): World {
  const dataDir = resolveDataDir(
    options.dataDir ?? join(tmpdir(), `little-memory-world-${randomBytes(6).toString("hex")}`),
  );
  const maxConcurrentSteps = resolveMaxConcurrentSteps(options.maxConcurrentSteps);
  const runs = new Map<string, StoredEvent[]>();
  const artifacts = new Map<string, { manifest: ArtifactManifest; bytes: Uint8Array }>();
  const locks = new Map<string, RunLockOwner & { readonly fence: number; readonly lost: AbortController }>();
  /** The last fence handed out per run: it survives release, so fences only grow. */
  const fences = new Map<string, number>();
  const outerLoops = new Map<string, string>();
  let closed = false;

  function open(operation: string): void {
    if (closed) throw new WorldClosedError(operation);
  }

  function summaryOf(runId: string, events: readonly StoredEvent[]): RunSummary {
    const first = events[0]!;
    const last = events[events.length - 1]!;
    return {
      runId,
      eventCount: last.sequence,
      firstEventType: first.type,
      firstRecordedAt: first.recordedAt,
      lastEventType: last.type,
      lastRecordedAt: last.recordedAt,
    };
  }

  return {
    paths: worldPaths(dataDir),
    maxConcurrentSteps,

    async appendEvents(runId, events, appendOptions) {
      open("append events");
      requireRunId(runId);
      const fence = requireFence(appendOptions);
      // Checked like any option; nothing in memory is synced either way.
      requireDurable(appendOptions);
      const prepared = prepareEvents(runId, events);
      if (fence !== undefined && locks.get(runId)?.fence !== fence) {
        throw new LeaseLostError({ runId, fence, reason: "that lock was released or another holder has acquired the run since" });
      }
      const log = runs.get(runId) ?? [];
      const recordedAt = isoNow();
      const stored = prepared.map((event, index) => {
        const sequence = log.length + index + 1;
        return {
          eventId: eventIdFor({ runId, sequence, type: event.type, payloadJson: event.payloadJson }),
          sequence,
          type: event.type,
          recordedAt,
          payloadJson: event.payloadJson,
        };
      });
      if (stored.length === 0) return [];
      log.push(...stored);
      runs.set(runId, log);
      return stored.map((event) => envelopeOf({ runId, ...event }));
    },

    async listEvents(runId, listOptions) {
      open("list events");
      requireRunId(runId);
      const { afterSequence, typePrefix } = resolveListEventsOptions(listOptions);
      const result: EventEnvelope[] = [];
      for (const event of (runs.get(runId) ?? []).slice(afterSequence)) {
        if (typePrefix === undefined || event.type.startsWith(typePrefix)) result.push(envelopeOf({ runId, ...event }));
      }
      return result;
    },

    async deferListEvents(runId, listOptions) {
      open("list events");
      requireRunId(runId);
      const { afterSequence, typePrefix } = resolveListEventsOptions(listOptions);
      // Stored events are never changed or removed, so the run's list as of now is its first
      // `length` entries: read later (even after close), it is still exactly that.
      const log = runs.get(runId) ?? [];
      const length = log.length;
      return deferredEventList(() =>
        log
          .slice(afterSequence, length)
          .filter((event) => typePrefix === undefined || event.type.startsWith(typePrefix))
          .map((event) => envelopeOf({ runId, ...event })),
      );
    },

    async listRuns() {
      open("list runs");
      return [...runs.entries()]
        .map(([runId, events]) => summaryOf(runId, events))
        .sort((left, right) => compare(left.firstRecordedAt, right.firstRecordedAt) || compare(left.runId, right.runId));
    },

    async getRun(runId) {
      open("get a run");
      requireRunId(runId);
      const events = runs.get(runId);
      return events === undefined ? undefined : summaryOf(runId, events);
    },

    async writeArtifact(input) {
      open("write an artifact");
      const { manifest, bytes } = encodeArtifact(input);
      if (!runs.has(manifest.runId)) throw new UnknownRunError(manifest.runId, "writing an artifact");
      artifacts.set(manifest.id, { manifest, bytes });
      return manifest;
    },

    async readArtifact(artifactId) {
      open("read an artifact");
      return read(artifactId);
    },

    async readArtifactText(artifactId) {
      open("read an artifact");
      const { manifest, bytes } = read(artifactId);
      return decodeArtifactText(manifest, bytes);
    },

    async readArtifactJson(artifactId) {
      open("read an artifact");
      const { manifest, bytes } = read(artifactId);
      return decodeArtifactJson(manifest, bytes);
    },

    async getArtifactManifest(artifactId) {
      open("read an artifact manifest");
      requireArtifactId(artifactId);
      return artifacts.has(artifactId) ? read(artifactId).manifest : undefined;
    },

    async acquireRunLock(runId) {
      open("acquire a run lock");
      requireRunId(runId);
      const held = locks.get(runId);
      if (held !== undefined) throw new RunLockedError(ownerOf(held), "held by another caller in this process");
      const fence = (fences.get(runId) ?? 0) + 1;
      fences.set(runId, fence);
      const owner = {
        runId,
        token: randomBytes(16).toString("hex"),
        pid: process.pid,
        hostname: hostname(),
        acquiredAt: new Date().toISOString(),
        fence,
        lost: new AbortController(),
      };
      locks.set(runId, owner);
      const lock: RunLock = {
        runId,
        token: owner.token,
        pid: owner.pid,
        acquiredAt: owner.acquiredAt,
        fence,
        holder: `${owner.hostname}:${owner.pid}`,
        signal: owner.lost.signal,
        async release() {
          if (locks.get(runId)?.token === owner.token) locks.delete(runId);
        },
      };
      return lock;
    },

    async readOuterLoopManifest(outerLoopId) {
      open("read an outer-loop manifest");
      requireOuterLoopId(outerLoopId);
      const text = outerLoops.get(outerLoopId);
      return text === undefined ? undefined : (JSON.parse(text) as JsonObject);
    },

    async writeOuterLoopManifest(outerLoopId, manifest) {
      open("write an outer-loop manifest");
      requireOuterLoopId(outerLoopId);
      outerLoops.set(outerLoopId, serializeOuterLoopManifest(outerLoopId, manifest));
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const held of locks.values()) {
        held.lost.abort(new LeaseLostError({ runId: held.runId, fence: held.fence, reason: "the world holding the lock was closed" }));
      }
      locks.clear();
      // The default data dir is this world's own temp folder: what other packages put there (step
      // scratch, memory stores) is as ephemeral as the events. A data dir the caller chose is kept.
      if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
    },
  };

  function read(artifactId: string): StoredArtifact {
    requireArtifactId(artifactId);
    const stored = artifacts.get(artifactId);
    if (stored === undefined) throw new ArtifactNotFoundError(artifactId);
    const manifest = verifyArtifact(artifactId, stored.manifest, stored.bytes);
    return { manifest, bytes: stored.bytes.slice() };
  }
}

function ownerOf(held: RunLockOwner & { readonly lost: AbortController }): RunLockOwner {
  const { lost: _lost, ...owner } = held;
  return owner;
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
