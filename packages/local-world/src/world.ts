import type { CanonicalText } from "@little-stack/canonical";
import type { JsonObject, JsonValue } from "./json-value.js";

/**
 * The `World` contract: the storage under every run. `localWorld()` (SQLite + files) and
 * `memoryWorld()` implement it; a third-party world (Postgres, say) implements it and runs
 * `describeWorldConformance` from `@little-stack/local-world/test`.
 *
 * Every method is asynchronous so that remote storage can implement it; every failure is a
 * `LittleWorkflowError` with a stable `code` (see the README's error table).
 */
export interface World {
  /**
   * Appends one event or a batch, atomically: either every event of the batch is stored, with
   * consecutive sequences following the run's last one, or none is. Resolves to the stored
   * envelopes in order. The first event of a run id creates the run.
   *
   * Payloads must be plain JSON (they are stored as RFC 8785 canonical JSON); anything else is
   * rejected with `InvalidEventError` naming the event and the JSONPath, and nothing is stored.
   * Correct under concurrent appenders (the sequence is assigned inside the storage's own
   * transaction); the run lock is what keeps a second *runtime* from interleaving its events.
   *
   * With `{ fence }` (the `fence` of a held `RunLock`), the append is **fenced**: it is refused
   * with `LeaseLostError` (`world.lease_lost`), storing nothing, unless that fence is the run's
   * current one and its lock is still held — checked in the same statement or transaction that
   * stores the events, so a holder that was paused past its lease and taken over can never write.
   * Without a fence the append is not checked against the lock.
   */
  appendEvents(runId: string, events: EventInput | readonly EventInput[], options?: AppendEventsOptions): Promise<EventEnvelope[]>;

  /**
   * The run's events in sequence order, optionally only those after `afterSequence` and/or
   * whose type starts with `typePrefix`. A run with no events (an unknown run id) yields `[]`.
   */
  listEvents(runId: string, options?: ListEventsOptions): Promise<EventEnvelope[]>;

  /**
   * `listEvents` for a caller that may never look at the events (the runtime's result of a run
   * that had completed already: its `events` are read when someone asks for them). Resolves to a
   * `DeferredEventList` whose `read()` returns, synchronously, what `listEvents(runId, options)`
   * resolves to — the same events, checks and errors — at some instant between this call and the
   * first `read()`; for a run nobody appends to any more, that is the same list.
   *
   * Where the cost goes is the world's: `localWorld` and `memoryWorld` read nothing until the
   * first `read()` (a `localWorld` closed before then opens its event log read-only for that read,
   * so the list stays readable while the data dir exists, and closing reads nothing);
   * `postgresWorld` fetches the rows when this resolves (its storage is read asynchronously only)
   * and checks them on the first `read()`.
   *
   * Optional for a third-party world: without it the runtime reads such a result's events at once.
   */
  deferListEvents?(runId: string, options?: ListEventsOptions): Promise<DeferredEventList>;

  /** One summary per run that has at least one event, oldest first. */
  listRuns(): Promise<RunSummary[]>;

  /** The summary of one run, or `undefined` when the run has no events. */
  getRun(runId: string): Promise<RunSummary | undefined>;

  /**
   * Stores an artifact (bytes, UTF-8 text or JSON) of an existing run and resolves to its
   * manifest. Ids are content-addressed (`art_` + 16 hex of the digest of the manifest fields),
   * so writing the same content twice is idempotent. The artifact is durable when this
   * resolves: write it before the event that references it. Throws `UnknownRunError` when the
   * run has no events yet.
   */
  writeArtifact(input: ArtifactInput): Promise<ArtifactManifest>;

  /** The manifest and bytes of an artifact, re-hashed: a mismatch throws `ArtifactIntegrityError`. */
  readArtifact(artifactId: string): Promise<StoredArtifact>;

  /** The artifact decoded as UTF-8 (any encoding; invalid UTF-8 throws `InvalidArtifactError`). */
  readArtifactText(artifactId: string): Promise<string>;

  /** The artifact parsed as JSON (`json` or `utf-8` encodings). */
  readArtifactJson(artifactId: string): Promise<JsonValue>;

  /** The manifest alone (still verified against the bytes), or `undefined` when unknown. */
  getArtifactManifest(artifactId: string): Promise<ArtifactManifest | undefined>;

  /**
   * Takes the run lock: one writer per run. Refused with `RunLockedError` while another live
   * holder (another process, or another caller in this process) has it; a lock whose holder is
   * gone is recovered. Of several racing processes exactly one wins.
   *
   * Every acquisition gets a `fence` one greater than any earlier acquisition of the run (a
   * takeover included). What "gone" means is the world's: `localWorld` keeps a process lock (held
   * while the holder process lives, recovered once it died); a database-backed world keeps a
   * lease that it renews while the holder lives and that another holder may take once it
   * expired by the database's clock (`expiresAt`). When a lock is lost, its `signal` aborts.
   */
  acquireRunLock(runId: string): Promise<RunLock>;

  /** The outer-loop manifest, or `undefined` when none was written. */
  readOuterLoopManifest(outerLoopId: string): Promise<JsonObject | undefined>;

  /** Replaces the outer-loop manifest atomically (a reader sees the old or the new one, whole). */
  writeOuterLoopManifest(outerLoopId: string, manifest: JsonObject): Promise<void>;

  /** Where file-based stores live (memory, run scratch, skills cache). */
  readonly paths: WorldPaths;

  /** The cap on in-flight step attempts across all parallel groups of a run. */
  readonly maxConcurrentSteps: number;

  /** Releases the storage. Idempotent; any other call afterwards throws `WorldClosedError`. */
  close(): Promise<void>;
}

/** One event to append. `type` is `[A-Za-z][A-Za-z0-9_.:-]*`, at most 200 characters. */
export type EventInput = {
  readonly type: string;
  readonly payload: unknown;
  /**
   * Optional: `CanonicalText.of(payload)`, when the caller has canonicalized the payload already
   * (the runtime has, to derive the event id of an event it holds). A world may store its text
   * instead of serializing `payload` again; one that ignores it stays correct. It must be made
   * from this very payload: the world trusts the seal, not a comparison.
   */
  readonly canonicalPayload?: CanonicalText;
};

/** A stored event. */
export type EventEnvelope<TPayload = JsonValue> = {
  /** `evt_` + 16 hex of the sha256 of the canonical JSON of `{ runId, sequence, type, payload }`. */
  readonly eventId: string;
  readonly runId: string;
  /** 1-based, dense per run. */
  readonly sequence: number;
  readonly type: string;
  /** ISO-8601 UTC time of the append. */
  readonly recordedAt: string;
  /**
   * The payload as stored (a fresh copy, detached from the caller's object). `localWorld` and
   * `memoryWorld` parse it from the stored text on first read, so callers that only need the
   * sequence and id of what they appended pay nothing for it.
   */
  readonly payload: TPayload;
};

export type AppendEventsOptions = {
  /**
   * The `fence` of the `RunLock` the caller holds: the append is stored only while that lock is
   * the run's current one (else `LeaseLostError`, nothing stored).
   */
  readonly fence?: number;
  /**
   * `false`: the batch may be lost in an OS crash or a power loss until a later durable append of
   * the same run makes it durable (with everything before it). It is stored, sequenced and visible
   * to readers at once, like any batch; only its sync may be skipped (`localWorld` in strict mode
   * skips its fdatasync). For events whose loss a resume repairs by writing them again —
   * announcements, and records derived from durable ones — so they do not each cost a sync.
   * Default `true`.
   */
  readonly durable?: boolean;
};

export type ListEventsOptions = {
  /** Only events with `sequence > afterSequence` (a non-negative integer). */
  readonly afterSequence?: number;
  /** Only events whose `type` starts with this string (`"harness.tool_call."`). */
  readonly typePrefix?: string;
};

/** Events to be read later: see `World.deferListEvents`. */
export type DeferredEventList = {
  /**
   * The events (what `listEvents` would resolve to), read and checked on the first call; later
   * calls return the same array, or throw the same error (`EventLogCorruptError`, …) again.
   */
  read(): EventEnvelope[];
};

/** What `little runs` needs to print a line per run without reading every event. */
export type RunSummary = {
  readonly runId: string;
  /** Equals the last sequence, because sequences are dense. */
  readonly eventCount: number;
  readonly firstEventType: string;
  readonly firstRecordedAt: string;
  readonly lastEventType: string;
  readonly lastRecordedAt: string;
};

/** How an artifact's bytes are meant to be read. */
export type ArtifactEncoding = "binary" | "utf-8" | "json";

/** The manifest stored beside every artifact. */
export type ArtifactManifest = {
  /** `art_` + 16 hex of the digest of every other field of this manifest. */
  readonly id: string;
  readonly runId: string;
  /** The step that produced it; `""` for a run-level artifact. */
  readonly stepPath: string;
  readonly name: string;
  readonly contentType: string;
  readonly encoding: ArtifactEncoding;
  /** `sha256:` + 64 hex of the bytes. */
  readonly sha256: string;
  /** Size in bytes. */
  readonly size: number;
};

type ArtifactTarget = {
  readonly runId: string;
  /** The producing step's path; `""` for a run-level artifact. */
  readonly stepPath: string;
  /** A file-like name (`report.md`), 1..255 characters, no NUL, no `/`. */
  readonly name: string;
  /** Defaults by encoding: `application/octet-stream`, `text/plain; charset=utf-8`, `application/json`. */
  readonly contentType?: string;
};

/** Exactly one of `bytes`, `text` or `json`. */
export type ArtifactInput =
  | (ArtifactTarget & { readonly bytes: Uint8Array; readonly text?: never; readonly json?: never })
  | (ArtifactTarget & { readonly text: string; readonly bytes?: never; readonly json?: never })
  | (ArtifactTarget & { readonly json: unknown; readonly bytes?: never; readonly text?: never });

export type StoredArtifact = {
  readonly manifest: ArtifactManifest;
  readonly bytes: Uint8Array;
};

/** A held run lock (a process lock or a lease, depending on the world). */
export type RunLock = {
  readonly runId: string;
  /** Random token naming this acquisition. */
  readonly token: string;
  readonly pid: number;
  readonly acquiredAt: string;
  /**
   * Grows by one on every acquisition of the run, takeovers included: name it in
   * `appendEvents(runId, events, { fence })` so that nothing is stored once the lock is lost.
   */
  readonly fence: number;
  /** Who holds it: `<hostname>:<pid>` for a process lock, the worker's holder id for a lease. */
  readonly holder: string;
  /**
   * For a lease: when it lapses unless renewed (ISO-8601, the storage's clock), as of the last
   * renewal. Absent for a process lock, which is held for as long as its process lives.
   */
  readonly expiresAt?: string;
  /** The holder this acquisition replaced, when the lock was recovered (dead process, lapsed lease). */
  readonly recoveredFrom?: RunLockOwner;
  /**
   * Aborted, with a `LeaseLostError` as its reason, when this holder loses the lock without
   * releasing it (a lease that could not be renewed in time or was taken over, or the world
   * closed under it). Whoever works on the run stops at once and writes nothing more.
   */
  readonly signal: AbortSignal;
  /** Gives the lock up. Idempotent; never releases a lock someone else has since taken. */
  release(): Promise<void>;
};

/** Who holds (or held) a run lock: what `locks/<runId>/owner.json` records. */
export type RunLockOwner = {
  readonly runId: string;
  readonly token: string;
  readonly pid: number;
  readonly hostname: string;
  readonly acquiredAt: string;
  /** The holder's start time from `/proc` (Linux), to tell a reused pid from the holder. */
  readonly processStartTime?: string;
  /** The fence of that acquisition (absent in lock rows written before fences existed). */
  readonly fence?: number;
  /** The holder id, for a lease. */
  readonly holder?: string;
  /** For a lease: when it lapses (or lapsed) unless renewed. */
  readonly expiresAt?: string;
};

/**
 * Roots of the file-based stores. The layout below each root (per run, per sub-run, per step)
 * belongs to `@little-stack/memory`; the world only says where the roots are.
 */
export type WorldPaths = {
  readonly dataDir: string;
  /** `<dataDir>/memory` with `workflows/<id>`, `pipelines/<key>` and `org` below it. */
  readonly memory: string;
  readonly memoryWorkflows: string;
  readonly memoryPipelines: string;
  readonly memoryOrg: string;
  /** `<dataDir>/runs`: `<runId>/scratch`, `<runId>/sub-runs/<subRunId>/…`, `steps/<stepPath>/scratch`. */
  readonly runs: string;
  /** `<dataDir>/skills-cache/<sha>/`. */
  readonly skillsCache: string;
};
