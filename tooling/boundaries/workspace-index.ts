import type { BoundaryViolation } from "./boundary-violation.js";
import { isRecord } from "./graph-table.js";
import type { RepoDescription, WorkspaceProject } from "./repo-description.js";

export const dependencySections = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const;
export type DependencySection = (typeof dependencySections)[number];

export type DeclaredDependency = {
  readonly section: DependencySection;
  readonly name: string;
  readonly version: string;
};

export type IndexedProject = WorkspaceProject & {
  /** The manifest's `name`, when it has one. */
  readonly name?: string;
  /** The folder name under packages/ (only for kind "package"). */
  readonly folder?: string;
  readonly dependencies: readonly DeclaredDependency[];
  /** The manifest's `exports` keys (`.`, `./test`, `./*` …); absent when it has no `exports`. */
  readonly exportKeys?: readonly string[];
};

export type WorkspaceIndex = {
  readonly projects: readonly IndexedProject[];
  readonly byName: ReadonlyMap<string, IndexedProject>;
};

/** Names, dependencies and exports of every workspace project, plus the manifests it could not read. */
export function indexWorkspace(repo: RepoDescription): { index: WorkspaceIndex; violations: BoundaryViolation[] } {
  const violations: BoundaryViolation[] = [];
  const projects = repo.projects.map((project): IndexedProject => {
    const { manifest } = project;
    const folder = project.kind === "package" ? project.dir.slice("packages/".length) : undefined;
    if (manifest.problem !== undefined || !isRecord(manifest.value)) {
      violations.push({
        rule: "graph-table",
        file: manifest.path,
        message: `${manifest.problem ?? "is not a JSON object"} — every workspace project needs a package.json`,
      });
      return { ...project, folder, dependencies: [] };
    }
    const value = manifest.value;
    const name = typeof value["name"] === "string" ? value["name"] : undefined;
    return { ...project, name, folder, dependencies: declaredDependencies(value), exportKeys: exportKeys(value["exports"]) };
  });
  const byName = new Map<string, IndexedProject>();
  for (const project of projects) if (project.name !== undefined) byName.set(project.name, project);
  return { index: { projects, byName }, violations };
}

export function declaredDependencies(manifest: Record<string, unknown>): DeclaredDependency[] {
  const found: DeclaredDependency[] = [];
  for (const section of dependencySections) {
    const entries = manifest[section];
    if (!isRecord(entries)) continue;
    for (const [name, version] of Object.entries(entries)) found.push({ section, name, version: String(version) });
  }
  return found;
}

/** `exports` as a list of subpath keys; a string or a conditions object means only `.`. */
function exportKeys(exportsField: unknown): string[] | undefined {
  if (exportsField === undefined) return undefined;
  if (!isRecord(exportsField)) return ["."];
  const keys = Object.keys(exportsField);
  return keys.some((key) => key.startsWith(".")) ? keys : ["."];
}

/** Whether `./<subpath>` is one of the keys, exactly or through a `*` pattern key. */
export function isExportedSubpath(keys: readonly string[], subpath: string): boolean {
  const wanted = subpath === "" ? "." : `./${subpath}`;
  return keys.some((key) => {
    const star = key.indexOf("*");
    if (star === -1) return key === wanted;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    return wanted.length >= prefix.length + suffix.length && wanted.startsWith(prefix) && wanted.endsWith(suffix);
  });
}

/** How to refer to a project in a message: `@little-stack/lwir (packages/lwir)`. */
export function describeProject(project: IndexedProject): string {
  return project.name === undefined ? project.dir : `${project.name} (${project.dir})`;
}
