// Public surface of @little-stack/local-world: an explicit list of named exports.
export type {
  ArtifactEncoding,
  ArtifactInput,
  ArtifactManifest,
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
export {
  DataDirNotWritableError,
  DurabilityNotAppliedError,
  InvalidIdentifierError,
  InvalidWorldOptionsError,
  UnknownRunError,
  WorldClosedError,
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
export { InvalidOuterLoopManifestError, OuterLoopManifestCorruptError } from "./outer-loop-manifest-errors.js";
