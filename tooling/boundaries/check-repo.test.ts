import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeRepo, type FakeRepo, writePackage } from "./__fixtures__/fake-repo.js";
import type { BoundaryViolation } from "./boundary-violation.js";
import { checkRepo } from "./check-repo.js";
import { readRepo } from "./read-repo.js";

let repo: FakeRepo;
beforeEach(() => {
  repo = createFakeRepo();
});
afterEach(() => {
  repo.dispose();
});

function violations(): BoundaryViolation[] {
  return checkRepo(readRepo(repo.rootDir));
}

function packageJson(folder: string, dependencies: Record<string, string>, extra: object = {}): object {
  return {
    name: `@little-stack/${folder}`,
    exports: { ".": "./src/index.ts", "./test": "./src/test.ts", "./package.json": "./package.json" },
    dependencies,
    ...extra,
  };
}

describe("checkRepo on a clean fake repository", () => {
  it("finds nothing", () => {
    expect(violations()).toEqual([]);
  });
});

describe("(a) package.json names a workspace package its row does not allow", () => {
  it("catches a dependency outside the row, naming the file, the row and what to do", () => {
    repo.write("packages/middle/package.json", packageJson("middle", { "@little-stack/base": "workspace:*", "@little-stack/side": "workspace:*" }));
    repo.write("packages/middle/tsconfig.json", { references: [{ path: "../base" }, { path: "../side" }] });
    const found = violations();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: "dependency-not-allowed", file: "packages/middle/package.json" });
    expect(found[0]!.message).toContain('dependencies names @little-stack/side, but row "middle" of tooling/package-graph.json allows only [base]');
    expect(found[0]!.message).toContain("remove the dependency");
  });

  it.each(["devDependencies", "peerDependencies", "optionalDependencies"])("checks %s too", (section) => {
    repo.write("packages/base/package.json", { ...packageJson("base", {}), [section]: { "@little-stack/side": "workspace:*" } });
    repo.write("packages/base/tsconfig.json", { references: [{ path: "../side" }] });
    expect(violations().map((violation) => [violation.rule, violation.message.slice(0, section.length + 30)])).toEqual([
      ["dependency-not-allowed", `${section} names @little-stack/side, but`],
    ]);
  });

  it("catches a package depending on an app (apps and tooling are leaves)", () => {
    repo.write("packages/side/package.json", packageJson("side", { "@little-stack-apps/demo": "workspace:*" }));
    const found = violations();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: "dependency-not-allowed", file: "packages/side/package.json" });
    expect(found[0]!.message).toContain("apps and tooling are leaves");
  });

  it("catches an app depending on tooling, but lets apps depend on any package", () => {
    repo.write("apps/demo/package.json", {
      name: "@little-stack-apps/demo",
      dependencies: { "@little-stack/top": "workspace:*", "@little-stack/side": "workspace:*", "@little-stack-tooling/tooling": "workspace:*" },
    });
    expect(violations().map((violation) => [violation.rule, violation.file])).toEqual([["dependency-not-allowed", "apps/demo/package.json"]]);
  });

  it("asks for the workspace: protocol and for @little-stack/<folder> names", () => {
    repo.write("packages/middle/package.json", packageJson("middle", { "@little-stack/base": "^0.1.0" }));
    repo.write("packages/side/package.json", { ...packageJson("side", {}), name: "@little-stack/elsewhere" });
    const messages = violations().map((violation) => violation.message);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('use "workspace:*"');
    expect(messages[1]).toContain('name it "@little-stack/side"');
  });
});

describe("(b) tsconfig references differ from the workspace dependencies", () => {
  it("catches a missing reference", () => {
    repo.write("packages/top/tsconfig.json", { references: [{ path: "../base" }] });
    expect(violations()).toEqual([
      {
        rule: "tsconfig-references",
        file: "packages/top/tsconfig.json",
        message: 'references lack "../middle" although package.json depends on @little-stack/middle — add { "path": "../middle" }',
      },
    ]);
  });

  it("catches an extra reference, and one pointing outside packages/", () => {
    repo.write("packages/top/tsconfig.json", {
      references: [{ path: "../base" }, { path: "../middle/tsconfig.json" }, { path: "../side" }, { path: "../../apps/demo" }],
    });
    const found = violations();
    expect(found.map((violation) => violation.rule)).toEqual(["tsconfig-references", "tsconfig-references"]);
    expect(found[0]!.message).toContain('references "../../apps/demo", which is not another package under packages/');
    expect(found[1]!.message).toContain('references "../side" but package.json does not depend on @little-stack/side');
  });

  it("reads tsconfig.json with comments and trailing commas", () => {
    repo.write("packages/middle/tsconfig.json", '{\n  // why: built after base\n  "references": [{ "path": "../base" },],\n}\n');
    expect(violations()).toEqual([]);
  });
});

describe("(c) source files import undeclared workspace packages or deep-import", () => {
  it("catches an import of a workspace package the package.json does not declare", () => {
    repo.write("packages/middle/src/extra.ts", 'import { side } from "@little-stack/side";\nexport const extra = side;\n');
    expect(violations()).toEqual([
      {
        rule: "undeclared-import",
        file: "packages/middle/src/extra.ts",
        message:
          'imports @little-stack/side, which packages/middle/package.json does not declare — add it to dependencies ("workspace:*") and to tsconfig references if the table allows the edge; otherwise do not import it',
      },
    ]);
  });

  it.each([
    ["import type", 'import type { Side } from "@little-stack/side";'],
    ["export from", 'export { side } from "@little-stack/side";'],
    ["export star", "export * from '@little-stack/side';"],
    ["side-effect import", 'import "@little-stack/side";'],
    ["dynamic import", 'const loaded = await import("@little-stack/side");'],
    ["import type query", 'type Loaded = typeof import("@little-stack/side");'],
  ])("sees a %s", (_kind, line) => {
    repo.write("packages/middle/src/extra.test.ts", `${line}\nexport {};\n`);
    expect(violations().map((violation) => [violation.rule, violation.file])).toEqual([["undeclared-import", "packages/middle/src/extra.test.ts"]]);
  });

  it("ignores specifiers in comments, strings, template literals and non-literal dynamic imports", () => {
    repo.write(
      "packages/middle/src/quiet.ts",
      [
        '// import { side } from "@little-stack/side";',
        '/* export * from "../../top/src/index.js"; */',
        "const text = 'import x from \"@little-stack/side\"';",
        'const template = `await import("@little-stack/top/src/x.js")`;',
        "const name = text + template;",
        "export const later = () => import(name);",
      ].join("\n"),
    );
    expect(violations()).toEqual([]);
  });

  it.each([
    ["a package's src folder", "@little-stack/base/src/index.js", 'deep-imports "@little-stack/base/src/index.js", which @little-stack/base (packages/base) does not export — import from @little-stack/base or @little-stack/base/test'],
    ["a subpath not in exports", "@little-stack/base/internal", 'deep-imports "@little-stack/base/internal"'],
    ["a relative path into another package", "../../base/src/index.js", 'imports "../../base/src/index.js", a path outside packages/middle — import "@little-stack/base" (or a subpath it exports) instead, and declare it'],
    ["a relative path leaving the repository layout", "../../../elsewhere.js", 'imports "../../../elsewhere.js", a path outside packages/middle — keep imports inside the project'],
  ])("catches a deep import of %s", (_kind, specifier, message) => {
    repo.write("packages/middle/src/deep.ts", `import { thing } from "${specifier}";\nexport const deep = thing;\n`);
    const found = violations();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: "deep-import", file: "packages/middle/src/deep.ts" });
    expect(found[0]!.message).toContain(message);
  });

  it("accepts exported subpaths, package self-references and relative imports inside the package", () => {
    repo.write("packages/middle/src/fine.ts", 'import { helper } from "@little-stack/base/test";\nimport { middle } from "@little-stack/middle";\nimport { x } from "../src/index.js";\nexport const fine = [helper, middle, x];\n');
    expect(violations()).toEqual([]);
  });

  it("checks apps and tooling too, and skips dist, node_modules and __fixtures__", () => {
    repo.write("apps/demo/src/extra.ts", 'import { side } from "@little-stack/side";\n');
    repo.write("tooling/scripts/x.ts", 'import { top } from "../../packages/top/src/index.js";\n');
    repo.write("packages/middle/dist/index.js", 'import "@little-stack/side";\n');
    repo.write("packages/middle/node_modules/x/index.js", 'import "@little-stack/side";\n');
    repo.write("packages/middle/src/__fixtures__/code.ts", 'import "@little-stack/side";\n');
    expect(violations().map((violation) => [violation.rule, violation.file])).toEqual([
      ["undeclared-import", "apps/demo/src/extra.ts"],
      ["deep-import", "tooling/scripts/x.ts"],
    ]);
  });

  it("skips an apps/ folder without package.json (not a workspace project), but not a packages/ one", () => {
    repo.write("apps/examples/plan.js", 'import "../../packages/top/src/index.js";\n');
    repo.remove("packages/side/package.json");
    expect(violations().map((violation) => [violation.file, violation.message])).toEqual([
      ["packages/side/package.json", "file is missing — every workspace project needs a package.json"],
    ]);
  });

  it("names a misspelt workspace package", () => {
    repo.write("packages/middle/src/typo.ts", 'import { x } from "@little-stack/bsae";\n');
    expect(violations().map((violation) => violation.message)).toEqual(['imports "@little-stack/bsae", but no workspace project is named @little-stack/bsae — fix the name']);
  });
});

describe("(d) the root package.json depends on a workspace package", () => {
  it.each(["dependencies", "devDependencies"])("catches one in %s", (section) => {
    repo.write("package.json", { name: "fake", private: true, [section]: { "@little-stack/top": "workspace:*" } });
    expect(violations()).toEqual([
      {
        rule: "root-dependency",
        file: "package.json",
        message: `${section} names workspace package @little-stack/top — the root must not depend on workspace packages; declare it in the app or tooling project that uses it`,
      },
    ]);
  });
});

describe("(e) the graph has a cycle", () => {
  it("prints a cycle in the table", () => {
    repo.write("tooling/package-graph.json", {
      packages: { base: { allowed: ["top"] }, middle: { allowed: ["base"] }, top: { allowed: ["base", "middle"] }, side: { allowed: [] } },
    });
    const found = violations();
    expect(found).toEqual([
      {
        rule: "cycle",
        file: "tooling/package-graph.json",
        message: "the allowed edges form a cycle base → top → base — remove one of these edges so the graph stays layered",
      },
    ]);
  });

  it("prints a cycle among package.json dependencies", () => {
    repo.write("tooling/package-graph.json", {
      packages: { base: { allowed: ["side"] }, middle: { allowed: ["base"] }, top: { allowed: ["base", "middle"] }, side: { allowed: ["middle"] } },
    });
    writePackage(repo, { folder: "base", dependencies: ["side"] });
    writePackage(repo, { folder: "side", dependencies: ["middle"] });
    const cycles = violations().filter((violation) => violation.rule === "cycle");
    expect(cycles.map((violation) => violation.message)).toEqual([
      "the allowed edges form a cycle base → side → middle → base — remove one of these edges so the graph stays layered",
      "package.json dependencies form a cycle base → side → middle → base — remove one of these dependencies so the graph stays layered",
    ]);
    expect(cycles.map((violation) => violation.file)).toEqual(["tooling/package-graph.json", "packages/base/package.json"]);
  });
});

describe("the table itself", () => {
  it("must list exactly the folders under packages/", () => {
    writePackage(repo, { folder: "extra", dependencies: [] });
    repo.remove("packages/side");
    expect(violations().map((violation) => violation.message)).toEqual([
      'packages/extra has no row — add "extra": { "allowed": [...] } (the packages it may import)',
      'row "side" has no folder packages/side — remove the row or create the package',
    ]);
  });

  it("names allowed entries that are not rows, self edges and malformed rows", () => {
    repo.write("tooling/package-graph.json", {
      packages: { base: { allowed: ["base"] }, middle: { allowed: ["base", "ghost"] }, top: { allowed: ["base", "middle"] }, side: {} },
    });
    expect(violations().map((violation) => violation.message)).toEqual([
      expect.stringContaining('row "side" needs "allowed"'),
      'row "base" allows itself — remove "base" from its allowed list',
      'row "middle" allows "ghost", which has no row — remove it or add a row for packages/ghost',
    ]);
  });

  it("reports unreadable JSON instead of crashing", () => {
    repo.write("tooling/package-graph.json", "{ not json");
    repo.write("packages/side/package.json", "");
    const found = violations();
    expect(found.map((violation) => violation.file)).toEqual(["tooling/package-graph.json", "packages/side/package.json"]);
    expect(found[0]!.message).toMatch(/^is not valid JSON/);
  });
});
