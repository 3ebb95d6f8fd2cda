import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runTypeScriptFile } from "./run-type-script-file.js";

const child = fileURLToPath(new URL("../__fixtures__/type-script-child.ts", import.meta.url));
const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), "little-ts-child-")));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

describe("runTypeScriptFile", () => {
  it("runs a .ts file that imports workspace sources, with the given args, cwd and environment", async () => {
    const result = await runTypeScriptFile(child, ["report", "one", "two words"], { cwd: elsewhere, env: { ...process.env, LITTLE_CHILD_MARKER: "set-by-test" } });
    expect(result).toMatchObject({ exitCode: 0, signal: null });
    expect(JSON.parse(result.stdout)).toEqual({
      args: ["one", "two words"],
      cwd: elsewhere,
      marker: "set-by-test",
      digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      canonicalFrom: expect.stringMatching(/\/packages\/canonical\/src\/index\.ts$/),
    });
  });

  it("resolves packages as an installed program does (dist/) when given no conditions", async () => {
    const result = await runTypeScriptFile(child, ["report"], { conditions: [] });
    expect(result).toMatchObject({ exitCode: 0, signal: null });
    expect(JSON.parse(result.stdout)).toMatchObject({ canonicalFrom: expect.stringMatching(/\/packages\/canonical\/dist\/index\.js$/) });
  });

  it("inherits process.env by default, and a given env is the whole environment (a variable left out is unset)", async () => {
    process.env["LITTLE_CHILD_MARKER"] = "inherited";
    try {
      const inherited = await runTypeScriptFile(child, ["report"]);
      expect(JSON.parse(inherited.stdout)).toMatchObject({ marker: "inherited" });
      const { LITTLE_CHILD_MARKER: _left, ...withoutMarker } = process.env;
      const replaced = await runTypeScriptFile(child, ["report"], { env: withoutMarker });
      expect(JSON.parse(replaced.stdout)).toMatchObject({ marker: null });
    } finally {
      delete process.env["LITTLE_CHILD_MARKER"];
    }
  });

  it("resolves with the exit code and stderr of a failing child instead of rejecting", async () => {
    const result = await runTypeScriptFile(child, ["fail"]);
    expect(result).toMatchObject({ exitCode: 3, signal: null, stdout: "" });
    expect(result.stderr).toContain("failing on purpose");
  });

  it("reports the signal that ended a killed child", async () => {
    const result = await runTypeScriptFile(child, ["kill"]);
    expect(result).toMatchObject({ exitCode: null, signal: "SIGKILL" });
  });
});
