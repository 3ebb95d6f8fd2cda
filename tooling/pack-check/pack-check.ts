/**
 * `pnpm pack-check` (part of `pnpm test`): are the packages installable and composable as
 * published? Packs every package, checks what each tarball ships, lints it with publint and attw,
 * installs the tarballs with plain npm into fresh projects outside the repository, runs the four
 * uses end to end, and typechecks the README examples against the packed types.
 *
 * Usage: tsx tooling/pack-check/pack-check.ts [--keep]   (--keep leaves the temp projects)
 * Exit 0 when everything holds, 1 with one block per problem.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkTarballFiles } from "./file-policy.js";
import { lintTarball } from "./lint-tarballs.js";
import { installProject, type InstalledProject, type NpmEnvironment } from "./npm-project.js";
import { packPackages, type PackedPackage } from "./pack-packages.js";
import { checkedReadmeBlocks } from "./readme-blocks.js";
import { outputTail, runCommand } from "./run-command.js";
import { userVersions, useDefinitions } from "./uses.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

type UseReport = { readonly name: string; readonly what: string; readonly installed?: InstalledProject; readonly runSeconds: number; readonly problems: readonly string[] };

async function main(argv: readonly string[]): Promise<number> {
  const keep = argv.includes("--keep");
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), "little-pack-check-"));
  const problems: string[] = [];
  try {
    const packStarted = performance.now();
    const packed = await packPackages({ repoRoot, workDir });
    const packSeconds = seconds(packStarted);

    const lintStarted = performance.now();
    for (const tarball of packed) {
      for (const problem of checkTarballFiles(tarball)) problems.push(`${tarball.name}: ${problem.file} ${problem.problem}`);
    }
    // publint + attw, two tarballs at a time (attw's own TypeScript program is CPU-bound).
    const lintResults = await mapConcurrently(packed, 2, (tarball) => lintTarball(tarball));
    packed.forEach((tarball, index) => {
      for (const problem of lintResults[index]!) problems.push(`${tarball.name}: ${problem}`);
    });
    const license = readFileSync(join(repoRoot, "LICENSE"), "utf8");
    for (const tarball of packed) {
      if (existsSync(join(tarball.unpackedDir, "LICENSE")) && readFileSync(join(tarball.unpackedDir, "LICENSE"), "utf8") !== license) problems.push(`${tarball.name}: its LICENSE differs from the repository's LICENSE`);
    }
    const lintSeconds = seconds(lintStarted);

    const npm = npmEnvironment(workDir);
    const uses: UseReport[] = [];
    for (const use of useDefinitions(repoRoot)) {
      const dir = join(workDir, "uses", use.name);
      let installed: InstalledProject | undefined;
      const runStarted = performance.now();
      let useProblems: string[];
      try {
        installed = await installProject({ dir, packed, ours: use.ours, theirs: use.theirs, npm });
        const runFrom = performance.now();
        useProblems = await use.run(dir);
        uses.push({ name: use.name, what: use.what, installed, runSeconds: seconds(runFrom), problems: useProblems });
      } catch (error) {
        useProblems = [(error as Error).message];
        uses.push({ name: use.name, what: use.what, ...(installed === undefined ? {} : { installed }), runSeconds: seconds(runStarted), problems: useProblems });
      }
      for (const problem of useProblems) problems.push(`use ${use.name}: ${problem}`);
    }

    const readmeStarted = performance.now();
    const readme = await checkReadmes({ workDir, packed, npm });
    problems.push(...readme.problems);
    const readmeSeconds = seconds(readmeStarted);

    const report = { packSeconds, lintSeconds, readmeSeconds, readmeBlocks: readme.blocks, totalSeconds: seconds(started), loadAverage: loadavg().map((value) => Number(value.toFixed(2))), tarballs: packed.map((tarball) => ({ name: tarball.name, bytes: tarball.bytes, files: tarball.files.length })), uses: uses.map(({ problems: _problems, ...use }) => use) };
    printReport(report, uses);
    writeFileSync(join(workDir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  } catch (error) {
    problems.push((error as Error).message);
  } finally {
    if (keep) process.stdout.write(`pack-check: temp projects kept in ${workDir}\n`);
    else rmSync(workDir, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    for (const problem of problems) process.stderr.write(`pack-check: ${problem}\n`);
    process.stderr.write(`pack-check: ${problems.length} problem${problems.length === 1 ? "" : "s"} — the packages are not installable as published\n`);
    return 1;
  }
  process.stdout.write(`pack-check: ok in ${seconds(started).toFixed(1)} s\n`);
  return 0;
}

/**
 * npm's cache survives between runs (node_modules/.cache, inside the repository), so only the
 * first run downloads third-party packages. better-sqlite3's install script would compile SQLite
 * (~3 minutes per project): it is handed the workspace's own build of the same version for the
 * same Node as a local prebuild instead — the native build itself is exercised by `pnpm install`.
 */
function npmEnvironment(workDir: string): NpmEnvironment {
  const cacheDir = join(repoRoot, "node_modules", ".cache", "little-pack-check", "npm");
  mkdirSync(cacheDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  const localWorld = createRequire(join(repoRoot, "packages", "local-world", "package.json"));
  const sqliteDir = dirname(localWorld.resolve("better-sqlite3/package.json"));
  const version = (JSON.parse(readFileSync(join(sqliteDir, "package.json"), "utf8")) as { version: string }).version;
  const binary = join(sqliteDir, "build", "Release", "better_sqlite3.node");
  if (existsSync(binary)) {
    const prebuilds = join(workDir, "prebuilds");
    mkdirSync(prebuilds, { recursive: true });
    const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    const tar = runCommandSync("tar", ["-czf", join(prebuilds, name), "-C", sqliteDir, "build/Release/better_sqlite3.node"]);
    if (tar === 0) env["npm_config_better_sqlite3_local_prebuilds"] = prebuilds;
  }
  return { cacheDir, env };
}

async function checkReadmes(options: { readonly workDir: string; readonly packed: readonly PackedPackage[]; readonly npm: NpmEnvironment }): Promise<{ problems: string[]; blocks: number }> {
  const readmes = ["README.md", ...options.packed.map((tarball) => `packages/${tarball.folder}/README.md`)];
  const blocks = readmes.flatMap((readme) => (existsSync(join(repoRoot, readme)) ? checkedReadmeBlocks(readme, readFileSync(join(repoRoot, readme), "utf8")) : []));
  const dir = join(options.workDir, "readmes");
  await installProject({
    dir,
    packed: options.packed,
    ours: options.packed.map((tarball) => tarball.name),
    theirs: { ai: userVersions.ai, zod: userVersions.zod, "@ai-sdk/openai": userVersions["@ai-sdk/openai"], "@ai-sdk/openai-compatible": userVersions["@ai-sdk/openai-compatible"], typescript: userVersions.typescript, "@types/node": userVersions["@types/node"] },
    npm: options.npm,
  });
  const files = blocks.map((block, index) => {
    const file = `block-${String(index).padStart(3, "0")}.ts`;
    writeFileSync(join(dir, file), block.code);
    return { file, block };
  });
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { target: "ES2022", lib: ["ES2023"], module: "node16", moduleResolution: "node16", strict: true, noEmit: true, skipLibCheck: true, types: ["node"], noUnusedLocals: false }, files: files.map((entry) => entry.file) }),
  );
  const compiled = await runCommand(process.execPath, [join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json", "--pretty", "false"], { cwd: dir });
  if (compiled.exitCode === 0) return { problems: [], blocks: blocks.length };
  const problems: string[] = [];
  const byFile = new Map(files.map((entry) => [entry.file, entry.block]));
  for (const line of compiled.stdout.split("\n")) {
    const match = /^(block-\d+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
    if (match === null) continue;
    // An example may leave out the context it sits in (a `world`, an `input` declared earlier in
    // the prose): undeclared names are allowed; everything it says about our API must typecheck.
    if (contextDiagnostics.test(match[4]!)) continue;
    const block = byFile.get(match[1]!)!;
    problems.push(`${block.readme}:${block.line + Number(match[2]) - 1}: a README example does not typecheck against the packed types: ${match[4]}`);
  }
  if (problems.length === 0 && !compiled.stdout.split("\n").some((line) => contextDiagnostics.test(line))) problems.push(`README examples: tsc failed:\n${outputTail(compiled)}`);
  return { problems, blocks: blocks.length };
}

function printReport(report: { packSeconds: number; lintSeconds: number; readmeSeconds: number; readmeBlocks: number; totalSeconds: number; loadAverage: number[]; tarballs: { name: string; bytes: number; files: number }[] }, uses: readonly UseReport[]): void {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const totalBytes = report.tarballs.reduce((sum, tarball) => sum + tarball.bytes, 0);
  out(`pack-check: packed ${report.tarballs.length} packages (${kb(totalBytes)} of tarballs) in ${report.packSeconds.toFixed(1)} s; file policy + publint + attw in ${report.lintSeconds.toFixed(1)} s`);
  out("use              our packages  packages  on disk (without typescript, @types)  install  run");
  for (const use of uses) {
    const installed = use.installed;
    out(
      `${use.name.padEnd(16)} ${String(installed?.ourPackages.length ?? "-").padStart(12)}  ${String(installed?.packageCount ?? "-").padStart(8)}  ${(installed === undefined ? "-" : `${mb(installed.bytesOnDisk)} (${mb(installed.bytesWithoutDevTools)})`).padStart(20)}                   ${(installed === undefined ? "-" : `${installed.installSeconds.toFixed(1)} s`).padStart(7)}  ${use.runSeconds.toFixed(1)} s  ${use.problems.length === 0 ? "ok" : `${use.problems.length} problem(s)`}`,
    );
  }
  for (const use of uses) if (use.installed !== undefined) out(`  ${use.name}: ${use.installed.ourPackages.join(", ")}`);
  out(`pack-check: ${report.readmeBlocks} README examples typechecked in ${report.readmeSeconds.toFixed(1)} s; total ${report.totalSeconds.toFixed(1)} s (load average ${report.loadAverage.join(" ")})`);
}

function runCommandSync(program: string, args: readonly string[]): number {
  return spawnSync(program, args, { stdio: "ignore" }).status ?? 1;
}

async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// "Cannot find name" (2304, 2552 with a suggestion) and a shorthand property without a value (18004).
const contextDiagnostics = /error TS(2304|2552|18004):/;

const seconds = (since: number) => (performance.now() - since) / 1000;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

process.exitCode = await main(process.argv.slice(2));
