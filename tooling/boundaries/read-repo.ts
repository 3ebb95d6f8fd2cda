import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import ts from "typescript";
import type { JsonDocument, RepoDescription, SourceFile, WorkspaceProject, WorkspaceProjectKind } from "./repo-description.js";

export const graphTablePath = "tooling/package-graph.json";

const sourceExtensions = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/** Build output, installs and fixtures (data, not source) are not checked. */
const skippedDirectories = new Set(["node_modules", "dist", "coverage", "__fixtures__"]);

/**
 * Reads what the boundary check needs from a repository laid out as architecture.md says:
 * packages/* (the table's packages), apps/* and tooling (leaves), the root package.json and the
 * table. Missing or malformed files are recorded, not thrown, so the check can name them.
 */
export function readRepo(rootDir: string): RepoDescription {
  const packageFolders = directoriesIn(join(rootDir, "packages"));
  const projects: WorkspaceProject[] = [
    ...packageFolders.map((folder) => readProject(rootDir, "package", `packages/${folder}`)),
    // An apps/ folder without package.json (plain examples, like apps/quickstart) is not a
    // workspace project for pnpm either, so there is nothing to depend on or to check.
    ...directoriesIn(join(rootDir, "apps"))
      .filter((folder) => isFile(join(rootDir, "apps", folder, "package.json")))
      .map((folder) => readProject(rootDir, "app", `apps/${folder}`)),
    ...(isDirectory(join(rootDir, "tooling")) ? [readProject(rootDir, "tooling", "tooling")] : []),
  ];
  return {
    graph: readJsonDocument(rootDir, graphTablePath),
    rootManifest: readJsonDocument(rootDir, "package.json"),
    packageFolders,
    projects,
  };
}

function readProject(rootDir: string, kind: WorkspaceProjectKind, dir: string): WorkspaceProject {
  const tsconfigPath = `${dir}/tsconfig.json`;
  const hasTsconfig = isFile(join(rootDir, tsconfigPath));
  return {
    kind,
    dir,
    manifest: readJsonDocument(rootDir, `${dir}/package.json`),
    ...(hasTsconfig ? { tsconfig: readJsonDocument(rootDir, tsconfigPath, { comments: true }) } : {}),
    sourceFiles: sourceFilesUnder(rootDir, dir),
  };
}

function sourceFilesUnder(rootDir: string, dir: string): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (relativeDir: string): void => {
    const entries = readdirSync(join(rootDir, relativeDir), { withFileTypes: true }).sort((left, right) => left.name.localeCompare(right.name));
    for (const entry of entries) {
      const path = posix.join(relativeDir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !skippedDirectories.has(entry.name)) walk(path);
      } else if (entry.isFile() && sourceExtensions.test(entry.name)) {
        files.push({ path, text: readFileSync(join(rootDir, path), "utf8") });
      }
    }
  };
  walk(dir);
  return files;
}

/** tsconfig.json may hold comments and trailing commas; TypeScript's own reader accepts them. */
function readJsonDocument(rootDir: string, path: string, options: { comments?: boolean } = {}): JsonDocument {
  let text: string;
  try {
    text = readFileSync(join(rootDir, path), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { path, problem: code === "ENOENT" ? "file is missing" : `cannot be read (${code ?? String(error)})` };
  }
  if (options.comments === true) {
    const parsed = ts.parseConfigFileTextToJson(path, text);
    if (parsed.error !== undefined) return { path, problem: `is not valid JSON (${ts.flattenDiagnosticMessageText(parsed.error.messageText, " ")})` };
    return { path, value: parsed.config as unknown };
  }
  try {
    return { path, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { path, problem: `is not valid JSON (${(error as Error).message})` };
  }
}

function directoriesIn(dir: string): string[] {
  if (!isDirectory(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort();
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}
