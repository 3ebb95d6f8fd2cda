import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    },
  );
}
