import type { BoundaryViolation } from "./boundary-violation.js";
import { findCycles } from "./find-cycles.js";
import type { JsonDocument } from "./repo-description.js";

/** Package folder name → the package folders it may import. */
export type GraphTable = ReadonlyMap<string, readonly string[]>;

/**
 * Package folder → the packages it may use from its tests only (`testOnly` in the table): as
 * devDependencies, imported from `*.test.ts`, `*.test-d.ts` and `__fixtures__/` files. This lets a
 * package above `testing` use the shared scripted models and loopback server instead of copies.
 */
export type TestOnlyTable = ReadonlyMap<string, readonly string[]>;

export type GraphTableReading = {
  /** Absent when the file is unusable; the other checks that need it are then skipped. */
  readonly table?: GraphTable;
  readonly testOnly?: TestOnlyTable;
  readonly violations: readonly BoundaryViolation[];
};

const shapeHint = 'expected { "packages": { "<folder>": { "allowed": ["<folder>", …] } } }';

/**
 * Reads `tooling/package-graph.json` and checks the table itself: its shape, that every allowed
 * name is a row, that its rows are exactly the folders under packages/, and that it is acyclic.
 */
export function readGraphTable(document: JsonDocument, packageFolders: readonly string[]): GraphTableReading {
  const file = document.path;
  const violation = (message: string, rule: BoundaryViolation["rule"] = "graph-table"): BoundaryViolation => ({ rule, file, message });
  if (document.problem !== undefined) return { violations: [violation(`${document.problem} — restore the table of allowed package edges`)] };

  const packages = isRecord(document.value) ? document.value["packages"] : undefined;
  if (!isRecord(packages)) return { violations: [violation(`${shapeHint} — fix the table`)] };

  const violations: BoundaryViolation[] = [];
  const table = new Map<string, string[]>();
  const testOnly = new Map<string, string[]>();
  for (const [folder, row] of Object.entries(packages)) {
    const allowed = isRecord(row) ? row["allowed"] : undefined;
    if (!isStringList(allowed)) {
      violations.push(violation(`row "${folder}" needs "allowed": an array of package folder names (${shapeHint})`));
      table.set(folder, []);
      continue;
    }
    table.set(folder, [...new Set(allowed)]);
    const testOnlyEntries = isRecord(row) ? (row["testOnly"] ?? []) : [];
    if (!isStringList(testOnlyEntries)) {
      violations.push(violation(`row "${folder}" has "testOnly" that is not an array of package folder names — fix it or remove it`));
      continue;
    }
    testOnly.set(folder, [...new Set(testOnlyEntries)]);
  }

  for (const [folder, allowed] of table) {
    for (const target of allowed) {
      if (target === folder) violations.push(violation(`row "${folder}" allows itself — remove "${target}" from its allowed list`));
      else if (!table.has(target)) violations.push(violation(`row "${folder}" allows "${target}", which has no row — remove it or add a row for packages/${target}`));
    }
    for (const target of testOnly.get(folder) ?? []) {
      if (target === folder || !table.has(target) || allowed.includes(target)) {
        violations.push(violation(`row "${folder}" lists "${target}" in testOnly, but it is the package itself, has no row, or is already allowed — remove it from testOnly`));
      }
    }
  }

  const folders = new Set(packageFolders);
  for (const folder of [...folders].sort()) {
    if (!table.has(folder)) violations.push(violation(`packages/${folder} has no row — add "${folder}": { "allowed": [...] } (the packages it may import)`));
  }
  for (const folder of [...table.keys()].sort()) {
    if (!folders.has(folder)) violations.push(violation(`row "${folder}" has no folder packages/${folder} — remove the row or create the package`));
  }

  // Test-only edges are real build edges (tsconfig references, devDependencies): they must keep
  // the graph acyclic too.
  const edges = new Map(
    [...table].map(([folder, allowed]) => [
      folder,
      [...allowed, ...(testOnly.get(folder) ?? [])].filter((target) => target !== folder && table.has(target)),
    ]),
  );
  for (const cycle of findCycles(edges)) {
    violations.push(violation(`the allowed edges form a cycle ${cycle.join(" → ")} — remove one of these edges so the graph stays layered`, "cycle"));
  }
  return { table, testOnly, violations };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === "string");
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
