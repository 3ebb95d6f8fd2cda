import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeWorldConformance } from "./test/index.js";
import { memoryWorld } from "./memory-world.js";

describeWorldConformance("memoryWorld", () => memoryWorld());

describe("memoryWorld data dir", () => {
  it("removes its own temp data dir (scratch, memory stores) on close, and keeps one the caller chose", async () => {
    const own = memoryWorld();
    mkdirSync(join(own.paths.runs, "run-1", "scratch"), { recursive: true });
    writeFileSync(join(own.paths.runs, "run-1", "scratch", "notes.md"), "draft");
    expect(existsSync(own.paths.dataDir)).toBe(true);
    await own.close();
    expect(existsSync(own.paths.dataDir)).toBe(false);

    const chosen = mkdtempSync(join(tmpdir(), "memory-world-chosen-"));
    const given = memoryWorld({ dataDir: chosen });
    mkdirSync(given.paths.runs, { recursive: true });
    await given.close();
    await given.close();
    expect(existsSync(given.paths.runs)).toBe(true);
  });
});
