import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localWorld, type World } from "@little-stack/local-world";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CompileAppends } from "./compile-appends.js";

let dataDir: string;
let world: World;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "compile-appends-"));
  world = localWorld({ dataDir });
});
afterEach(async () => {
  await world.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("CompileAppends", () => {
  it("commits held events with the next append and returns only that append's events", async () => {
    const appends = new CompileAppends(world, "run-1");
    appends.hold([{ type: "Asked", payload: 1 }]);
    expect(await world.listEvents("run-1")).toEqual([]);
    const stored = await appends.appendEvents("run-1", [{ type: "harness.session.started", payload: 2 }]);
    expect(stored.map((event) => [event.sequence, event.type])).toEqual([[2, "harness.session.started"]]);
    const logged = await world.listEvents("run-1");
    expect(logged.map((event) => event.type)).toEqual(["Asked", "harness.session.started"]);
    expect(logged[0]!.recordedAt).toBe(logged[1]!.recordedAt);
  });

  it("a read that could return a held event commits it first; a read of other types does not", async () => {
    const appends = new CompileAppends(world, "run-1");
    appends.hold([{ type: "Asked", payload: 1 }]);
    expect(await appends.listEvents("run-1", { typePrefix: "harness." })).toEqual([]);
    expect(await world.listEvents("run-1")).toEqual([]);
    expect((await appends.listEvents("run-1", { typePrefix: "Ask" })).map((event) => event.type)).toEqual(["Asked"]);
    appends.hold([{ type: "Verdict", payload: 2 }]);
    expect((await appends.listEvents("run-1")).map((event) => event.type)).toEqual(["Asked", "Verdict"]);
  });

  it("keeps what it holds when the append fails (nothing of the batch stored), and flush() commits it", async () => {
    const appends = new CompileAppends(world, "run-1");
    appends.hold([{ type: "Asked", payload: 1 }]);
    await expect(appends.appendEvents("run-1", [{ type: "not a type!", payload: 2 }])).rejects.toThrow(/type/);
    expect(await world.listEvents("run-1")).toEqual([]);
    await appends.flush();
    expect((await world.listEvents("run-1")).map((event) => event.type)).toEqual(["Asked"]);
    await appends.flush();
    expect(await world.listEvents("run-1")).toHaveLength(1);
  });
});
