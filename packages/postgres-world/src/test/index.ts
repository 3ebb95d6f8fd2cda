// Test helpers of @little-stack/postgres-world (the `/test` subpath): a real PostgreSQL cluster
// started from the machine's binaries, for our tests and for users testing their own workers.
export { findPostgresBinaries, startPostgresCluster, type PostgresCluster } from "./postgres-cluster.js";
export { startStallingProxy, type StallingProxy } from "./stalling-proxy.js";
export { usePostgresCluster, type TestPostgres } from "./use-postgres-cluster.js";
