import { describe, expect, it } from "vitest";
import { importSpecifiers, isPathSpecifier, splitBareSpecifier } from "./parse-imports.js";

describe("importSpecifiers", () => {
  it("finds every static, type-only, re-export, dynamic and require form", () => {
    const source = [
      'import a from "one";',
      "import type { B } from 'two';",
      'import { type C, d } from "three/sub";',
      'import "four";',
      'export * from "./five.js";',
      'export { f } from "../six.js";',
      'export type { G } from "seven";',
      'const h = await import("eight");',
      'type I = typeof import("nine");',
      'import j = require("ten");',
      'const k = require("eleven");',
    ].join("\n");
    expect(importSpecifiers(source)).toEqual(["one", "two", "three/sub", "four", "./five.js", "../six.js", "seven", "eight", "nine", "ten", "eleven"]);
  });

  it("ignores comments, strings, templates and computed dynamic imports", () => {
    const source = [
      '// import a from "one";',
      '/* import("two") */',
      "const s = 'import x from \"three\"';",
      'const t = `export * from "four"`;',
      "const u = await import(s + t);",
    ].join("\n");
    expect(importSpecifiers(source)).toEqual([]);
  });
});

describe("splitBareSpecifier and isPathSpecifier", () => {
  it("splits scoped and unscoped names from their subpaths", () => {
    expect(splitBareSpecifier("@little-stack/lwir")).toEqual({ packageName: "@little-stack/lwir", subpath: "" });
    expect(splitBareSpecifier("@little-stack/local-world/test")).toEqual({ packageName: "@little-stack/local-world", subpath: "test" });
    expect(splitBareSpecifier("ajv/dist/2020.js")).toEqual({ packageName: "ajv", subpath: "dist/2020.js" });
  });

  it("tells paths from package names", () => {
    expect(["./a.js", "../b.js", "/abs.js", ".", ".."].every(isPathSpecifier)).toBe(true);
    expect(["node:fs", "ajv", "@little-stack/lwir", ".hidden"].some(isPathSpecifier)).toBe(false);
  });
});
