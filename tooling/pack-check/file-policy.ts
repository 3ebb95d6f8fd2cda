/**
 * What may ship in a tarball of ours, decided from the tarball's own contents: its file list, its
 * package.json and the `sources` of every source map in it. Pure, so its rules are tested on
 * synthetic file lists (file-policy.test.ts) and applied to every real tarball by the pack check.
 */
import { posix } from "node:path";

export type PackedPackageJson = {
  readonly name?: unknown;
  readonly exports?: unknown;
  readonly bin?: unknown;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
};

export type TarballContents = {
  /** Paths inside the tarball without the leading `package/`. */
  readonly files: readonly string[];
  readonly packageJson: PackedPackageJson;
  /** Each source map (by its path) with the `sources` it lists. */
  readonly sourceMaps: ReadonlyMap<string, readonly string[]>;
};

export type FileProblem = { readonly file: string; readonly problem: string };

// Files a tarball must carry (npm adds package.json; README and LICENSE are ours to ship).
const requiredFiles = ["package.json", "README.md", "LICENSE"];

// What may ship: compiled output, declarations, maps, the sources the maps point at, docs, skills.
const allowedPatterns: readonly RegExp[] = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^dist\/.+\.(js|d\.ts)(\.map)?$/,
  /^src\/.+\.ts$/,
  /^skills\/.+\.md$/,
];

// What never ships, with the reason printed when it does.
const forbidden: readonly { readonly pattern: RegExp; readonly why: string }[] = [
  { pattern: /(^|\/)\.?[^/]*\.tsbuildinfo$/, why: "a TypeScript build-info file (compiler state, not code)" },
  { pattern: /\.test\.[^/]+$/, why: "a test file (or its compiled output)" },
  { pattern: /\.test-d\.[^/]+$/, why: "a type test (or its compiled output, which imports vitest)" },
  { pattern: /(^|\/)__fixtures__\//, why: "test fixture" },
  { pattern: /\.bench\.[^/]+$/, why: "a benchmark" },
];

export function checkTarballFiles(contents: TarballContents): FileProblem[] {
  const problems: FileProblem[] = [];
  const files = new Set(contents.files);
  for (const required of requiredFiles) {
    if (!files.has(required)) problems.push({ file: required, problem: "is missing: every tarball ships package.json, README.md and LICENSE" });
  }
  for (const file of contents.files) {
    const rule = forbidden.find((candidate) => candidate.pattern.test(file));
    if (rule !== undefined) {
      problems.push({ file, problem: `must not ship: ${rule.why} — exclude it in package.json "files"` });
      continue;
    }
    if (!allowedPatterns.some((pattern) => pattern.test(file))) {
      problems.push({ file, problem: 'is not a file a package ships (dist/*.js|.d.ts and maps, src/*.ts, README.md, LICENSE, skills/*.md) — exclude it in package.json "files" or extend tooling/pack-check/file-policy.ts with a reason' });
    }
  }
  for (const [map, sources] of contents.sourceMaps) {
    for (const source of sources) {
      const target = posix.normalize(posix.join(posix.dirname(map), source));
      if (!files.has(target)) problems.push({ file: map, problem: `points at ${source} (${target}), which the tarball does not ship: ship the sources with the maps, or no maps` });
    }
  }
  if (!contents.files.some((file) => /^dist\/index\.js$/.test(file))) {
    problems.push({ file: "dist/index.js", problem: "is missing: the tarball has no build output (was it packed without building? the prepack script builds it)" });
  }
  for (const target of exportTargets(contents.packageJson)) {
    const relative = posix.normalize(target);
    if (!files.has(relative)) problems.push({ file: "package.json", problem: `exports or bin names ${target}, which the tarball does not ship` });
  }
  for (const field of ["dependencies", "peerDependencies"] as const) {
    for (const [name, range] of Object.entries(contents.packageJson[field] ?? {})) {
      if (range.startsWith("workspace:") || range.startsWith("link:") || range.startsWith("file:")) {
        problems.push({ file: "package.json", problem: `${field}.${name} is "${range}": a published package must name a version range` });
      }
    }
  }
  return problems;
}

/** Every file path `exports` (all conditions) and `bin` point at. */
export function exportTargets(packageJson: PackedPackageJson): string[] {
  const targets: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === "string") targets.push(value);
    else if (typeof value === "object" && value !== null) for (const child of Object.values(value)) visit(child);
  };
  visit(packageJson.exports);
  visit(packageJson.bin);
  return targets.filter((target) => !target.includes("*"));
}
