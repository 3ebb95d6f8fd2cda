/**
 * publint (package.json fields, exports targets and formats) and `attw --profile esm-only`
 * (types resolve for node16-ESM and bundler consumers) over each packed tarball. Every message
 * publint prints — errors, warnings and suggestions — fails the check: there is no reason for a
 * package of ours to carry one.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import type { PackedPackage } from "./pack-packages.js";
import { outputTail, runCommand } from "./run-command.js";

const require = createRequire(import.meta.url);
const attwBin = join(dirname(require.resolve("@arethetypeswrong/cli/package.json")), "dist", "index.js");

export async function lintTarball(packed: PackedPackage): Promise<string[]> {
  const problems: string[] = [];
  // The unpacked tarball is exactly what ships: lint that folder as is (no packing again).
  const linted = await publint({ pkgDir: packed.unpackedDir, pack: false, level: "suggestion", strict: true });
  for (const message of linted.messages) {
    problems.push(`publint ${message.type}: ${formatMessage(message, linted.pkg, { color: false }) ?? message.code}`);
  }
  const attw = await runCommand(process.execPath, [attwBin, packed.tarball, "--profile", "esm-only", "--format", "ascii", "--no-color"], { cwd: dirname(packed.tarball) });
  if (attw.exitCode !== 0) problems.push(`attw --profile esm-only reports problems:\n${outputTail(attw, 40)}`);
  return problems;
}
