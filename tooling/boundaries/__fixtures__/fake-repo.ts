import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * A small repository on disk that passes the boundary check: packages base ← middle ← top (top may
 * import both), an unrelated package side, an app using top, and tooling. Tests break one thing
 * and expect exactly the matching violation.
 */
export type FakeRepo = {
  readonly rootDir: string;
  /** Writes (or overwrites) a file, creating its folders. JSON values are pretty-printed. */
  write(path: string, content: string | object): void;
  remove(path: string): void;
  dispose(): void;
};

export function createFakeRepo(): FakeRepo {
  const rootDir = mkdtempSync(join(tmpdir(), "boundaries-"));
  const write = (path: string, content: string | object): void => {
    const target = join(rootDir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
  };
  const repo: FakeRepo = {
    rootDir,
    write,
    remove: (path) => rmSync(join(rootDir, path), { recursive: true, force: true }),
    dispose: () => rmSync(rootDir, { recursive: true, force: true }),
  };

  write("package.json", { name: "fake", private: true, devDependencies: { typescript: "5.9.3" } });
  write("tooling/package-graph.json", {
    packages: { base: { allowed: [] }, middle: { allowed: ["base"] }, top: { allowed: ["base", "middle"] }, side: { allowed: [] } },
  });
  writePackage(repo, { folder: "base", dependencies: [] });
  writePackage(repo, { folder: "middle", dependencies: ["base"] });
  writePackage(repo, { folder: "top", dependencies: ["base", "middle"] });
  writePackage(repo, { folder: "side", dependencies: [] });
  write("packages/middle/src/index.ts", 'import { base } from "@little-stack/base";\nexport const middle = base + 1;\n');
  write(
    "packages/top/src/index.ts",
    'import type { Base } from "@little-stack/base";\nimport { middle } from "@little-stack/middle";\nimport { helper } from "@little-stack/base/test";\nimport { local } from "./local.js";\nexport const top = [middle, helper, local];\nexport type Top = Base;\n',
  );
  write("packages/top/src/local.ts", "export const local = 1;\n");
  write("apps/demo/package.json", { name: "@little-stack-apps/demo", private: true, dependencies: { "@little-stack/top": "workspace:*" } });
  write("apps/demo/src/main.ts", 'import { top } from "@little-stack/top";\nconsole.log(top);\n');
  write("tooling/package.json", { name: "@little-stack-tooling/tooling", private: true });
  return repo;
}

/** Writes packages/<folder>/{package.json, tsconfig.json, src/index.ts} with matching dependencies. */
export function writePackage(repo: FakeRepo, options: { folder: string; dependencies: readonly string[] }): void {
  const { folder, dependencies } = options;
  repo.write(`packages/${folder}/package.json`, {
    name: `@little-stack/${folder}`,
    version: "0.1.0",
    type: "module",
    exports: {
      ".": { "@little-stack/source": "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" },
      "./test": { "@little-stack/source": "./src/test.ts", types: "./dist/test.d.ts", default: "./dist/test.js" },
      "./package.json": "./package.json",
    },
    dependencies: Object.fromEntries(dependencies.map((name) => [`@little-stack/${name}`, "workspace:*"])),
  });
  repo.write(`packages/${folder}/tsconfig.json`, {
    extends: "../../tsconfig.base.json",
    compilerOptions: { composite: true },
    references: dependencies.map((name) => ({ path: `../${name}` })),
  });
  repo.write(`packages/${folder}/src/index.ts`, `export const ${folder} = 1;\nexport type Base = number;\n`);
  repo.write(`packages/${folder}/src/test.ts`, `export const helper = 2;\n`);
}
