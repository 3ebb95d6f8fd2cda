import type { BoundaryViolation } from "./boundary-violation.js";
import type { GraphTable, TestOnlyTable } from "./graph-table.js";
import { isRecord } from "./graph-table.js";
import type { JsonDocument } from "./repo-description.js";
import { declaredDependencies, type IndexedProject, type WorkspaceIndex } from "./workspace-index.js";

const workspaceProtocol = "workspace:";

/**
 * Rule (a) and its companions: a package under packages/ depends only on workspace packages its
 * table row allows, nothing depends on an app or on tooling, workspace dependencies use the
 * `workspace:` protocol, and every package is named `@little-stack/<folder>`.
 */
export function checkProjectManifests(options: {
  index: WorkspaceIndex;
  table: GraphTable | undefined;
  testOnly?: TestOnlyTable | undefined;
  graphFile: string;
}): BoundaryViolation[] {
  const { index, table, testOnly, graphFile } = options;
  const violations: BoundaryViolation[] = [];
  for (const project of index.projects) {
    const file = project.manifest.path;
    if (project.kind === "package" && project.manifest.value !== undefined) {
      const expectedName = `@little-stack/${project.folder}`;
      if (project.name !== expectedName) {
        violations.push({
          rule: "graph-table",
          file,
          message: `name is ${JSON.stringify(project.name ?? null)} but the folder is packages/${project.folder} — name it "${expectedName}" (table rows are folder names)`,
        });
      }
    }
    for (const dependency of project.dependencies) {
      const target = index.byName.get(dependency.name);
      if (target === undefined) {
        if (dependency.version.startsWith(workspaceProtocol)) {
          violations.push({
            rule: "dependency-not-allowed",
            file,
            message: `${dependency.section} names ${dependency.name} with "${dependency.version}", but no workspace project has that name — fix the name or remove it`,
          });
        }
        continue;
      }
      const where = `${dependency.section} names ${dependency.name}`;
      if (target === project) {
        violations.push({ rule: "dependency-not-allowed", file, message: `${where}, the package itself — remove it` });
        continue;
      }
      if (target.kind !== "package") {
        violations.push({
          rule: "dependency-not-allowed",
          file,
          message: `${where}, which is ${target.dir} — apps and tooling are leaves that nothing may depend on; move the shared code into a package under packages/`,
        });
        continue;
      }
      if (!dependency.version.startsWith(workspaceProtocol)) {
        violations.push({
          rule: "dependency-not-allowed",
          file,
          message: `${where} with version "${dependency.version}" — use "workspace:*" so the workspace copy is always the one used`,
        });
      }
      if (project.kind === "package" && table !== undefined) {
        const allowed = table.get(project.folder!) ?? [];
        const testOnlyTargets = testOnly?.get(project.folder!) ?? [];
        const edgeAllowed = allowed.includes(target.folder!);
        const testOnlyEdge = !edgeAllowed && testOnlyTargets.includes(target.folder!);
        if (testOnlyEdge && dependency.section !== "devDependencies") {
          violations.push({
            rule: "dependency-not-allowed",
            file,
            message: `${where} in ${dependency.section}, but row "${project.folder}" of ${graphFile} allows it for tests only — move it to devDependencies`,
          });
        } else if (!edgeAllowed && !testOnlyEdge) {
          violations.push({
            rule: "dependency-not-allowed",
            file,
            message: `${where}, but row "${project.folder}" of ${graphFile} allows only [${allowed.join(", ")}] — remove the dependency (or change the table, keeping it layered, and say why in the commit)`,
          });
        }
      }
    }
  }
  return violations;
}

/** Rule (d): the root package.json depends on no workspace project. */
export function checkRootManifest(options: { rootManifest: JsonDocument; index: WorkspaceIndex }): BoundaryViolation[] {
  const { rootManifest, index } = options;
  if (rootManifest.problem !== undefined || !isRecord(rootManifest.value)) {
    return [{ rule: "root-dependency", file: rootManifest.path, message: `${rootManifest.problem ?? "is not a JSON object"} — restore the root package.json` }];
  }
  return declaredDependencies(rootManifest.value)
    .filter((dependency) => index.byName.has(dependency.name) || dependency.version.startsWith(workspaceProtocol))
    .map((dependency) => ({
      rule: "root-dependency" as const,
      file: rootManifest.path,
      message: `${dependency.section} names workspace package ${dependency.name} — the root must not depend on workspace packages; declare it in the app or tooling project that uses it`,
    }));
}

/** The workspace dependencies of a package among packages/, as folder names. */
export function packageDependencyFolders(project: IndexedProject, index: WorkspaceIndex): string[] {
  const folders = new Set<string>();
  for (const dependency of project.dependencies) {
    const target = index.byName.get(dependency.name);
    if (target?.kind === "package" && target !== project) folders.add(target.folder!);
  }
  return [...folders].sort();
}
