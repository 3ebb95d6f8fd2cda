import type { BoundaryViolation } from "./boundary-violation.js";
import { findCycles } from "./find-cycles.js";
import type { JsonDocument } from "./repo-description.js";

/** Package folder name → the package folders it may import. */
export type GraphTable = ReadonlyMap<string, readonly string[]>;

export type GraphTableReading = {
  /** Absent when the file is unusable; the other checks that need it are then skipped. */
  readonly table?: GraphTable;
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
  for (const [folder, row] of Object.entries(packages)) {
    const allowed = isRecord(row) ? row["allowed"] : undefined;
    if (!Array.isArray(allowed) || !allowed.every((entry) => typeof entry === "string")) {
      violations.push(violation(`row "${folder}" needs "allowed": an array of package folder names (${shapeHint})`));
      table.set(folder, []);
      continue;
    }
    table.set(folder, [...new Set(allowed as string[])]);
  }

  for (const [folder, allowed] of table) {
    for (const target of allowed) {
      if (target === folder) violations.push(violation(`row "${folder}" allows itself — remove "${target}" from its allowed list`));
      else if (!table.has(target)) violations.push(violation(`row "${folder}" allows "${target}", which has no row — remove it or add a row for packages/${target}`));
    }
  }

  const folders = new Set(packageFolders);
  for (const folder of [...folders].sort()) {
    if (!table.has(folder)) violations.push(violation(`packages/${folder} has no row — add "${folder}": { "allowed": [...] } (the packages it may import)`));
  }
  for (const folder of [...table.keys()].sort()) {
    if (!folders.has(folder)) violations.push(violation(`row "${folder}" has no folder packages/${folder} — remove the row or create the package`));
  }

  const edges = new Map([...table].map(([folder, allowed]) => [folder, allowed.filter((target) => target !== folder && table.has(target))]));
  for (const cycle of findCycles(edges)) {
    violations.push(violation(`the allowed edges form a cycle ${cycle.join(" → ")} — remove one of these edges so the graph stays layered`, "cycle"));
  }
  return { table, violations };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
