import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defaultServerConditions } from "vite";
import type { TestProjectInlineConfiguration } from "vitest/config";

// Tests import workspace packages from their TypeScript sources (the "@little-stack/source"
// export condition) so `vitest run` needs no prior build; Node and tsc use dist/.
const sourceConditions = ["@little-stack/source", ...defaultServerConditions];

const packagesDir = fileURLToPath(new URL("./packages/", import.meta.url));
const toolingDir = fileURLToPath(new URL("./tooling/", import.meta.url));
const appsDir = fileURLToPath(new URL("./apps/", import.meta.url));

const defaultInclude = ["src/**/*.test.ts", "test/**/*.test.ts"];

function project(name: string, root: string, include: string[] = defaultInclude): TestProjectInlineConfiguration {
  return {
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions, externalConditions: sourceConditions } },
    test: {
      name,
      root,
      include,
      environment: "node",
      // clipanion's ESM build does a directory import Node refuses; let vite resolve it instead.
      server: { deps: { inline: ["clipanion"] } },
      testTimeout: 30_000,
      hookTimeout: 30_000,
    },
  };
}

function directoriesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** The project list: one vitest project per package, app and the tooling folder. */
export const projects: TestProjectInlineConfiguration[] = [
  ...directoriesIn(packagesDir).map((name) => project(name, `${packagesDir}${name}`)),
  ...directoriesIn(appsDir).map((name) => project(`app:${name}`, `${appsDir}${name}`)),
  // tooling keeps each tool's tests beside it (tooling/boundaries/*.test.ts).
  project("tooling", toolingDir, ["*/**/*.test.ts"]),
];
