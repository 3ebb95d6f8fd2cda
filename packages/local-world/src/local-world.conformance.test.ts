import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll } from "vitest";
import { describeWorldConformance } from "./test/index.js";
import { localWorld, type LocalWorld } from "./local-world.js";

const root = mkdtempSync(join(tmpdir(), "local-world-conformance-"));
let counter = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

for (const durability of ["strict", "process"] as const) {
  describeWorldConformance(
    `localWorld (${durability})`,
    () => localWorld({ dataDir: join(root, `world-${(counter += 1)}`), durability }),
    {
      async tamperArtifact(world, artifactId) {
        writeFileSync(join((world as LocalWorld).paths.artifactBlobs, artifactId), "tampered");
      },
      // Through a second connection, as a person editing events.db (or a flipped bit) would.
      async tamperEvent(world, { runId, sequence, damage }) {
        const database = new Database((world as LocalWorld).paths.eventsDb);
        try {
          const change =
            damage === "payload"
              ? "payload = json_set(payload, '$.n', 10)"
              : damage === "type"
                ? "type = 'Bogus'"
                : "payload = substr(payload, 2)";
          const changed = database.prepare(`UPDATE events SET ${change} WHERE run_id = ? AND sequence = ?`).run(runId, sequence).changes;
          if (changed !== 1) throw new Error(`no event #${sequence} of ${runId} to damage`);
        } finally {
          database.close();
        }
      },
      // The holder's recorded process start time no longer matches: to the world, it has died.
      async loseRunLock(world, runId) {
        const database = new Database((world as LocalWorld).paths.eventsDb);
        try {
          const owner = JSON.parse(database.prepare<[string], string>("SELECT owner FROM run_locks WHERE run_id = ?").pluck().get(runId)!);
          database.prepare("UPDATE run_locks SET owner = ? WHERE run_id = ?").run(JSON.stringify({ ...owner, processStartTime: "-1" }), runId);
        } finally {
          database.close();
        }
      },
    },
  );
}
