/**
 * Packs every workspace package the way a release would (`pnpm pack`: the prepack script builds
 * it, workspace ranges become versions) and reads each tarball back: its files, package.json and
 * the sources of its source maps.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { PackedPackageJson, TarballContents } from "./file-policy.js";
import { outputTail, runCommand } from "./run-command.js";

export type PackedPackage = TarballContents & {
  readonly folder: string;
  readonly name: string;
  readonly tarball: string;
  readonly bytes: number;
  /** Where the tarball was unpacked (its `package/` folder). */
  readonly unpackedDir: string;
};

export async function packPackages(options: { readonly repoRoot: string; readonly workDir: string }): Promise<PackedPackage[]> {
  const packagesDir = join(options.repoRoot, "packages");
  const tarballDir = join(options.workDir, "tarballs");
  mkdirSync(tarballDir, { recursive: true });
  const folders = readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && statSync(join(packagesDir, entry.name, "package.json"), { throwIfNoEntry: false }) !== undefined)
    .map((entry) => entry.name)
    .sort();
  const packed: PackedPackage[] = [];
  for (const folder of folders) {
    const before = new Set(readdirSync(tarballDir));
    const result = await runCommand("pnpm", ["pack", "--pack-destination", tarballDir], { cwd: join(packagesDir, folder) });
    if (result.exitCode !== 0) throw new Error(`pnpm pack failed in packages/${folder} (its prepack build, or the pack itself):\n${outputTail(result)}`);
    const created = readdirSync(tarballDir).filter((file) => file.endsWith(".tgz") && !before.has(file));
    if (created.length !== 1) throw new Error(`pnpm pack in packages/${folder} made ${created.length} tarballs, expected one`);
    const tarball = join(tarballDir, created[0]!);
    const unpackRoot = join(options.workDir, "unpacked", folder);
    mkdirSync(unpackRoot, { recursive: true });
    const untar = await runCommand("tar", ["-xzf", tarball, "-C", unpackRoot], { cwd: unpackRoot });
    if (untar.exitCode !== 0) throw new Error(`cannot unpack ${tarball}:\n${outputTail(untar)}`);
    const unpackedDir = join(unpackRoot, "package");
    const files = listFiles(unpackedDir);
    const packageJson = JSON.parse(readFileSync(join(unpackedDir, "package.json"), "utf8")) as PackedPackageJson & { name: string };
    const sourceMaps = new Map<string, readonly string[]>();
    for (const file of files.filter((candidate) => candidate.endsWith(".map"))) {
      const map = JSON.parse(readFileSync(join(unpackedDir, file), "utf8")) as { sources?: unknown };
      sourceMaps.set(file, Array.isArray(map.sources) ? map.sources.filter((source): source is string => typeof source === "string") : []);
    }
    packed.push({ folder, name: packageJson.name, tarball, bytes: statSync(tarball).size, unpackedDir, files, packageJson, sourceMaps });
  }
  return packed;
}

function listFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(root, path).split(sep).join("/"));
    }
  };
  walk(root);
  return files.sort();
}
