import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeRepo, type FakeRepo } from "./__fixtures__/fake-repo.js";
import type { BoundaryViolation } from "./boundary-violation.js";
import { checkRepo } from "./check-repo.js";
import { readRepo } from "./read-repo.js";

// In the fake repo, "top" may use "side" from its tests only.
let repo: FakeRepo;
beforeEach(() => {
  repo = createFakeRepo();
  repo.write("tooling/package-graph.json", {
    packages: {
      base: { allowed: [] },
      middle: { allowed: ["base"] },
      top: { allowed: ["base", "middle"], testOnly: ["side"] },
      side: { allowed: [] },
    },
  });
  useSideInTests({ section: "devDependencies" });
});
afterEach(() => {
  repo.dispose();
});

function useSideInTests(options: { section: string }): void {
  const runtimeDependencies = { "@little-stack/base": "workspace:*", "@little-stack/middle": "workspace:*" };
  const side = { "@little-stack/side": "workspace:*" };
  repo.write("packages/top/package.json", {
    name: "@little-stack/top",
    exports: { ".": "./src/index.ts", "./package.json": "./package.json" },
    ...(options.section === "dependencies"
      ? { dependencies: { ...runtimeDependencies, ...side } }
      : { dependencies: runtimeDependencies, [options.section]: side }),
  });
  repo.write("packages/top/tsconfig.json", { references: [{ path: "../base" }, { path: "../middle" }, { path: "../side" }] });
  repo.write("packages/top/src/index.ts", 'import { middle } from "@little-stack/middle";\nexport const top = middle;\n');
  repo.write("packages/top/src/top.test.ts", 'import { side } from "@little-stack/side";\nexport const used = side;\n');
  repo.write("packages/top/src/__fixtures__/helper.ts", 'import { side } from "@little-stack/side";\nexport const fixture = side;\n');
}

function violations(): BoundaryViolation[] {
  return checkRepo(readRepo(repo.rootDir));
}

describe("testOnly edges of the package graph", () => {
  it("allow a devDependency imported from tests and fixtures", () => {
    expect(violations()).toEqual([]);
  });

  it("refuse the package as a runtime dependency", () => {
    useSideInTests({ section: "dependencies" });
    const found = violations();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: "dependency-not-allowed", file: "packages/top/package.json" });
    expect(found[0]!.message).toContain("allows it for tests only — move it to devDependencies");
  });

  it("refuse an import from shipped code", () => {
    repo.write("packages/top/src/index.ts", 'import { side } from "@little-stack/side";\nexport const top = side;\n');
    const found = violations();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: "undeclared-import", file: "packages/top/src/index.ts" });
    expect(found[0]!.message).toContain("may use from tests only");
  });

  it("count for cycles: a test-only edge back down the graph is refused", () => {
    repo.write("tooling/package-graph.json", {
      packages: {
        base: { allowed: [], testOnly: ["top"] },
        middle: { allowed: ["base"] },
        top: { allowed: ["base", "middle"], testOnly: ["side"] },
        side: { allowed: [] },
      },
    });
    const cycles = violations().filter((violation) => violation.rule === "cycle");
    expect(cycles.map((violation) => violation.message)).toEqual([expect.stringMatching(/cycle .*base.*top.*base|cycle .*top.*base.*top/)]);
  });

  it("refuse a testOnly entry that is already allowed", () => {
    repo.write("tooling/package-graph.json", {
      packages: {
        base: { allowed: [] },
        middle: { allowed: ["base"] },
        top: { allowed: ["base", "middle"], testOnly: ["side", "base"] },
        side: { allowed: [] },
      },
    });
    expect(violations().map((violation) => violation.message)).toEqual([
      expect.stringContaining('row "top" lists "base" in testOnly'),
    ]);
  });
});
