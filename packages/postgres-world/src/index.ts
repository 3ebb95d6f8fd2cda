// Public surface of @little-stack/postgres-world: an explicit list of named exports.
export { postgresWorld, type PostgresWorld } from "./postgres-world.js";
export type { PostgresWorldOptions } from "./postgres-world-options.js";
export { latestSchemaVersion } from "./schema-migrations.js";
export { PostgresSchemaError, SharedDataDirError, SubmissionConflictError } from "./postgres-errors.js";
