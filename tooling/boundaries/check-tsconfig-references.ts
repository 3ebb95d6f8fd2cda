import { posix } from "node:path";
import type { BoundaryViolation } from "./boundary-violation.js";
import { isRecord } from "./graph-table.js";
import { packageDependencyFolders } from "./check-manifests.js";
import type { WorkspaceIndex } from "./workspace-index.js";

/**
 * Rule (b): a package's tsconfig.json `references` are exactly its workspace dependencies, so
 * `tsc -b` builds dependencies first and never sees an import it was not told about.
 */
export function checkTsconfigReferences(index: WorkspaceIndex): BoundaryViolation[] {
  const violations: BoundaryViolation[] = [];
  for (const project of index.projects) {
    if (project.kind !== "package" || project.manifest.value === undefined) continue;
    const tsconfig = project.tsconfig;
    const file = tsconfig?.path ?? `${project.dir}/tsconfig.json`;
    const violation = (message: string): BoundaryViolation => ({ rule: "tsconfig-references", file, message });
    if (tsconfig === undefined || tsconfig.problem !== undefined || !isRecord(tsconfig.value)) {
      violations.push(violation(`${tsconfig?.problem ?? "is missing"} — every package needs a composite tsconfig.json whose references are its workspace dependencies`));
      continue;
    }
    const references = tsconfig.value["references"] ?? [];
    if (!Array.isArray(references)) {
      violations.push(violation(`"references" must be an array of { "path": "../<folder>" }`));
      continue;
    }
    const referenced = new Set<string>();
    for (const reference of references) {
      const path = isRecord(reference) ? reference["path"] : undefined;
      if (typeof path !== "string") {
        violations.push(violation(`a "references" entry has no "path" string — write { "path": "../<folder>" }`));
        continue;
      }
      const target = posix.normalize(posix.join(project.dir, path.replace(/\/tsconfig(\.[\w-]+)?\.json$/, "")));
      const match = /^packages\/([^/]+)$/.exec(target);
      if (match === null || target === project.dir) {
        violations.push(violation(`references "${path}", which is not another package under packages/ — remove it`));
        continue;
      }
      referenced.add(match[1]!);
    }
    const dependencies = packageDependencyFolders(project, index);
    for (const folder of dependencies) {
      if (!referenced.has(folder)) {
        violations.push(violation(`references lack "../${folder}" although package.json depends on @little-stack/${folder} — add { "path": "../${folder}" }`));
      }
    }
    for (const folder of [...referenced].sort()) {
      if (!dependencies.includes(folder)) {
        violations.push(violation(`references "../${folder}" but package.json does not depend on @little-stack/${folder} — remove the reference or add the dependency ("workspace:*")`));
      }
    }
  }
  return violations;
}
