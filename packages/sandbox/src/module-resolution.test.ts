import { describe, expect, it } from "vitest";
import { resolveModuleSpecifier } from "./module-resolution.js";

const files = new Set(["main.ts", "lib/util.ts", "lib/helpers.js", "data.json"]);
const has = (path: string) => files.has(path);

describe("module resolution among the step's own files", () => {
  it("resolves relative specifiers, mapping .js to .ts and accepting no extension", () => {
    expect(resolveModuleSpecifier("main.ts", "./lib/util.js", has)).toEqual({ ok: true, path: "lib/util.ts" });
    expect(resolveModuleSpecifier("main.ts", "./lib/helpers", has)).toEqual({ ok: true, path: "lib/helpers.js" });
    expect(resolveModuleSpecifier("lib/util.ts", "../main.ts", has)).toEqual({ ok: true, path: "main.ts" });
  });

  it("refuses bare specifiers, node: modules, absolute paths and escapes from the root", () => {
    for (const specifier of ["fs", "node:fs", "lodash", "/etc/passwd", "https://example.com/x.js"]) {
      const result = resolveModuleSpecifier("main.ts", specifier, has);
      expect(result.ok, specifier).toBe(false);
    }
    expect(resolveModuleSpecifier("main.ts", "../outside.js", has)).toMatchObject({ ok: false, message: expect.stringContaining("outside") });
  });

  it("refuses files that are not modules", () => {
    expect(resolveModuleSpecifier("main.ts", "./data.json", has)).toMatchObject({ ok: false, message: expect.stringContaining("only .ts and .js") });
  });
});
