import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { describeWorldConformance } from "@little-stack/local-world/test";
import { postgresWorld, type PostgresWorld } from "./postgres-world.js";
import { usePostgresCluster } from "./test/index.js";

// A real cluster from the machine's binaries; every world of the suite gets its own schema and
// data dir, so each one starts empty.
const postgres = usePostgresCluster();
const dataRoot = mkdtempSync(join(tmpdir(), "postgres-world-conformance-"));
let counter = 0;

afterAll(async () => {
  rmSync(dataRoot, { recursive: true, force: true });
});

describeWorldConformance(
  "postgresWorld",
  () => {
    counter += 1;
    return postgresWorld({ connectionString: postgres.cluster.connectionString, schema: `conformance_${counter}`, dataDir: join(dataRoot, `world-${counter}`) });
  },
  {
    async tamperArtifact(world, artifactId) {
      await postgres.admin.query(`UPDATE ${(world as PostgresWorld).settings.schema}.artifacts SET bytes = 'tampered' WHERE id = $1`, [artifactId]);
    },
    async tamperEvent(world, { runId, sequence, damage }) {
      const { schema } = (world as PostgresWorld).settings;
      const change =
        damage === "payload" ? `payload = '{"n":99}'` : damage === "type" ? `type = 'StepFailed'` : `payload = '{"n":'`;
      await postgres.admin.query(`UPDATE ${schema}.events SET ${change} WHERE run_id = $1 AND sequence = $2`, [runId, sequence]);
    },
    async loseRunLock(world, runId) {
      await postgres.admin.query(`UPDATE ${(world as PostgresWorld).settings.schema}.runs SET lease_expires_at = clock_timestamp() - interval '1 second' WHERE run_id = $1`, [runId]);
    },
  },
);
