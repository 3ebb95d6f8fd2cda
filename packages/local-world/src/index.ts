// Public surface of @little-stack/local-world: an explicit list of named exports.
export type {
  AppendEventsOptions,
  ArtifactEncoding,
  ArtifactInput,
  ArtifactManifest,
  DeferredEventList,
  EventEnvelope,
  EventInput,
  ListEventsOptions,
  RunLock,
  RunLockOwner,
  RunSummary,
  StoredArtifact,
  World,
  WorldPaths,
} from "./world.js";
export type { JsonObject, JsonValue } from "./json-value.js";
export type { Durability } from "./durability.js";
export { localWorld, type LocalWorld, type LocalWorldOptions, type LocalWorldPaths } from "./local-world.js";
export { memoryWorld, type MemoryWorldOptions } from "./memory-world.js";
export { eventIdFor } from "./event-envelope.js";
export { isoNow } from "./recorded-at.js";
export {
  DataDirNotWritableError,
  DataDirWriteError,
  DurabilityNotAppliedError,
  InvalidDataDirError,
  InvalidIdentifierError,
  InvalidWorldOptionsError,
  UnknownRunError,
  WorldClosedError,
  WorldReadOnlyError,
} from "./world-errors.js";
export {
  EventLogCorruptError,
  EventLogGapError,
  EventLogUnavailableError,
  InvalidEventError,
  InvalidListEventsOptionsError,
} from "./event-log-errors.js";
export { ArtifactIntegrityError, ArtifactNotFoundError, InvalidArtifactError } from "./artifact-errors.js";
export { RunLockedError } from "./run-lock-errors.js";
export { InvalidFenceError, LeaseLostError } from "./lease-errors.js";
export {
  isRunQueue,
  type RunClaim,
  type RunQueue,
  type RunSubmission,
  type RunSubmissionFailure,
  type RunSubmissionInput,
  type RunSubmissionState,
} from "./run-queue.js";

// Building blocks for other worlds (postgresWorld, a third-party one): the same validation, ids,
// canonical texts and errors as localWorld, so every world stores byte-identical events.
export { envelopeOf, prepareEvents, type PreparedEvent } from "./event-envelope.js";
export { deferredEventList } from "./deferred-event-lists.js";
export { requireArtifactId, requireOuterLoopId, requireRunId } from "./identifiers.js";
export { requireFence } from "./lease-errors.js";
export { InvalidDurableOptionError, requireDurable } from "./append-durability.js";
export { resolveListEventsOptions, type ResolvedListEventsOptions } from "./list-events-options.js";
export { serializeOuterLoopManifest } from "./outer-loop-manifest.js";
export { decodeArtifactJson, decodeArtifactText, encodeArtifact, verifyArtifact, type EncodedArtifact } from "./artifact-content.js";
export { resolveDataDir, resolveMaxConcurrentSteps } from "./world-options.js";
export { worldPaths } from "./world-paths.js";
export { InvalidOuterLoopManifestError, OuterLoopManifestCorruptError } from "./outer-loop-manifest-errors.js";
