/**
 * A fresh npm project outside the repository that installs packed tarballs the way a user installs
 * published packages: plain `npm install`. Every `@little-stack/*` name is pinned to its tarball
 * through `overrides`, so npm never asks the registry for one of ours; third-party packages come
 * from the registry through a cache kept between runs (`--prefer-offline`).
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PackedPackage } from "./pack-packages.js";
import { outputTail, runCommand } from "./run-command.js";

export type InstalledProject = {
  readonly dir: string;
  /** Packages in node_modules (each installed copy counted once), ours included. */
  readonly packageCount: number;
  readonly ourPackages: readonly string[];
  readonly bytesOnDisk: number;
  /** The same without the user's own dev tools (typescript, @types/*), which a use may add. */
  readonly bytesWithoutDevTools: number;
  readonly installSeconds: number;
};

export type NpmEnvironment = {
  readonly cacheDir: string;
  /** Extra environment for install scripts (the better-sqlite3 local prebuild). */
  readonly env: NodeJS.ProcessEnv;
};

export async function installProject(options: {
  readonly dir: string;
  readonly packed: readonly PackedPackage[];
  /** Our packages the use depends on directly (the rest come in as their dependencies). */
  readonly ours: readonly string[];
  /** Third-party dependencies the user adds themselves (ai, zod, a provider, typescript …). */
  readonly theirs?: Readonly<Record<string, string>>;
  readonly npm: NpmEnvironment;
}): Promise<InstalledProject> {
  mkdirSync(options.dir, { recursive: true });
  const tarballOf = new Map(options.packed.map((packed) => [packed.name, `file:${packed.tarball}`]));
  const dependencies: Record<string, string> = {};
  for (const name of options.ours) {
    const spec = tarballOf.get(name);
    if (spec === undefined) throw new Error(`no tarball for ${name}`);
    dependencies[name] = spec;
  }
  Object.assign(dependencies, options.theirs ?? {});
  const packageJson = { name: "pack-check-use", private: true, type: "module", dependencies, overrides: Object.fromEntries(tarballOf) };
  writeFileSync(join(options.dir, "package.json"), `${JSON.stringify(packageJson, null, 2)}\n`);
  const install = await runCommand("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", "--cache", options.npm.cacheDir], {
    cwd: options.dir,
    env: { ...process.env, ...options.npm.env },
  });
  if (install.exitCode !== 0) throw new Error(`npm install failed in ${options.dir}:\n${outputTail(install, 40)}`);
  const installed = installedPackages(join(options.dir, "node_modules"));
  return {
    dir: options.dir,
    packageCount: installed.length,
    ourPackages: [...new Set(installed.filter((name) => name.startsWith("@little-stack/")))].sort(),
    bytesOnDisk: diskUsage(join(options.dir, "node_modules")),
    bytesWithoutDevTools: diskUsage(join(options.dir, "node_modules")) - diskUsage(join(options.dir, "node_modules", "typescript")) - diskUsage(join(options.dir, "node_modules", "@types")),
    installSeconds: install.seconds,
  };
}

/** Names of the packages under a node_modules tree (nested copies included). */
function installedPackages(nodeModules: string): string[] {
  const names: string[] = [];
  const visit = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      if (entry.name.startsWith("@")) {
        for (const scoped of readdirSync(join(dir, entry.name), { withFileTypes: true })) {
          if (scoped.isDirectory()) record(join(dir, entry.name, scoped.name), `${entry.name}/${scoped.name}`);
        }
      } else record(join(dir, entry.name), entry.name);
    }
  };
  const record = (packageDir: string, name: string): void => {
    if (statSync(join(packageDir, "package.json"), { throwIfNoEntry: false }) === undefined) return;
    names.push(name);
    visit(join(packageDir, "node_modules"));
  };
  visit(nodeModules);
  return names;
}

function diskUsage(path: string): number {
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return 0;
  let total = 0;
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const child = join(dir, entry.name);
      if (entry.isDirectory()) visit(child);
      else if (entry.isFile()) total += statSync(child).blocks * 512;
    }
  };
  visit(path);
  return total;
}
