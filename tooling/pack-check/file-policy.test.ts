import { describe, expect, it } from "vitest";
import { checkTarballFiles, type TarballContents } from "./file-policy.js";

const packageJson = {
  name: "@little-stack/example",
  exports: { ".": { "@little-stack/source": "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" },
  dependencies: { "@little-stack/canonical": "0.1.0" },
};

function clean(extra: Partial<TarballContents> = {}): TarballContents {
  return {
    files: ["package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.js.map", "dist/index.d.ts", "dist/index.d.ts.map", "src/index.ts"],
    packageJson,
    sourceMaps: new Map([
      ["dist/index.js.map", ["../src/index.ts"]],
      ["dist/index.d.ts.map", ["../src/index.ts"]],
    ]),
    ...extra,
  };
}

describe("checkTarballFiles", () => {
  it("accepts dist output with its maps, the sources they point at, README, LICENSE and package.json", () => {
    expect(checkTarballFiles(clean())).toEqual([]);
  });

  it("refuses a tsbuildinfo, compiled tests and type tests, and fixtures", () => {
    const files = [...clean().files, "dist/.tsbuildinfo", "dist/x.test.js", "dist/x.test.d.ts", "src/x.test.ts", "dist/api.test-d.js", "src/api.test-d.ts", "dist/__fixtures__/child.js"];
    const problems = checkTarballFiles(clean({ files }));
    expect(problems.map((problem) => problem.file)).toEqual(["dist/.tsbuildinfo", "dist/x.test.js", "dist/x.test.d.ts", "src/x.test.ts", "dist/api.test-d.js", "src/api.test-d.ts", "dist/__fixtures__/child.js"]);
    expect(problems[0]!.problem).toMatch(/build-info/);
    expect(problems[4]!.problem).toMatch(/type test/);
  });

  it("refuses a source map whose sources do not ship", () => {
    const files = clean().files.filter((file) => file !== "src/index.ts");
    const problems = checkTarballFiles(clean({ files }));
    expect(problems.map((problem) => problem.file)).toEqual(["dist/index.js.map", "dist/index.d.ts.map", "package.json"]);
    expect(problems[0]!.problem).toMatch(/points at \.\.\/src\/index\.ts \(src\/index\.ts\)/);
  });

  it("refuses a tarball without LICENSE or build output, and export targets that are not shipped", () => {
    const problems = checkTarballFiles(clean({ files: ["package.json", "README.md"], sourceMaps: new Map() }));
    expect(problems.map((problem) => problem.file)).toEqual(["LICENSE", "dist/index.js", "package.json", "package.json", "package.json"]);
  });

  it("refuses files outside the shipped kinds and workspace ranges", () => {
    const problems = checkTarballFiles(clean({ files: [...clean().files, "tsconfig.json"], packageJson: { ...packageJson, dependencies: { "@little-stack/canonical": "workspace:*" } } }));
    expect(problems).toEqual([
      { file: "tsconfig.json", problem: expect.stringMatching(/^is not a file a package ships/) },
      { file: "package.json", problem: 'dependencies.@little-stack/canonical is "workspace:*": a published package must name a version range' },
    ]);
  });
});
