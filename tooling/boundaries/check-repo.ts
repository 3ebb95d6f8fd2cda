import type { BoundaryViolation } from "./boundary-violation.js";
import { checkImports } from "./check-imports.js";
import { checkProjectManifests, checkRootManifest, packageDependencyFolders } from "./check-manifests.js";
import { checkTsconfigReferences } from "./check-tsconfig-references.js";
import { findCycles } from "./find-cycles.js";
import { readGraphTable } from "./graph-table.js";
import type { RepoDescription } from "./repo-description.js";
import { indexWorkspace, type WorkspaceIndex } from "./workspace-index.js";

/**
 * The boundary check: every way the repository can break the package graph of
 * tooling/package-graph.json, as one violation per problem. Pure: reads nothing but `repo`.
 */
export function checkRepo(repo: RepoDescription): BoundaryViolation[] {
  const { table, testOnly, violations: tableViolations } = readGraphTable(repo.graph, repo.packageFolders);
  const { index, violations: indexViolations } = indexWorkspace(repo);
  return [
    ...tableViolations,
    ...indexViolations,
    ...checkProjectManifests({ index, table, testOnly, graphFile: repo.graph.path }),
    ...checkTsconfigReferences(index),
    ...checkImports(index, testOnly),
    ...checkRootManifest({ rootManifest: repo.rootManifest, index }),
    ...checkDependencyCycles(index),
  ];
}

/** Rule (e) on the declared graph: package.json dependencies between packages form no cycle. */
function checkDependencyCycles(index: WorkspaceIndex): BoundaryViolation[] {
  const edges = new Map<string, string[]>();
  for (const project of index.projects) {
    if (project.kind === "package") edges.set(project.folder!, packageDependencyFolders(project, index));
  }
  return findCycles(edges).map((cycle) => ({
    rule: "cycle" as const,
    file: `packages/${cycle[0]}/package.json`,
    message: `package.json dependencies form a cycle ${cycle.join(" → ")} — remove one of these dependencies so the graph stays layered`,
  }));
}
