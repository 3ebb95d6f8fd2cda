/**
 * `pnpm check`: fails when the repository breaks the package graph of tooling/package-graph.json.
 * Usage: tsx tooling/boundaries/check-boundaries.ts [--root <repo dir>]
 * Exit 0 when clean, 1 with one line per violation on stderr, 2 when the check cannot run.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatViolation } from "./boundary-violation.js";
import { checkRepo } from "./check-repo.js";
import { graphTablePath, readRepo } from "./read-repo.js";

const defaultRoot = fileURLToPath(new URL("../../", import.meta.url));

function main(argv: readonly string[]): number {
  let rootDir = defaultRoot;
  for (let position = 0; position < argv.length; position += 1) {
    const argument = argv[position];
    if (argument === "--root" && argv[position + 1] !== undefined) {
      rootDir = resolve(argv[position + 1]!);
      position += 1;
    } else {
      process.stderr.write(`check-boundaries: unexpected argument "${argument}" — usage: check-boundaries.ts [--root <repo dir>]\n`);
      return 2;
    }
  }
  const repo = readRepo(rootDir);
  const violations = checkRepo(repo);
  if (violations.length > 0) {
    for (const violation of violations) process.stderr.write(`${formatViolation(violation)}\n`);
    process.stderr.write(`boundaries: ${violations.length} violation${violations.length === 1 ? "" : "s"} of ${graphTablePath}\n`);
    return 1;
  }
  const sourceFiles = repo.projects.reduce((total, project) => total + project.sourceFiles.length, 0);
  process.stdout.write(`boundaries: ok — ${repo.packageFolders.length} packages, ${repo.projects.length - repo.packageFolders.length} apps/tooling projects, ${sourceFiles} source files match ${graphTablePath}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
