import { posix } from "node:path";
import type { BoundaryViolation } from "./boundary-violation.js";
import { importSpecifiers, isPathSpecifier, splitBareSpecifier } from "./parse-imports.js";
import type { TestOnlyTable } from "./graph-table.js";
import { describeProject, type IndexedProject, isExportedSubpath, type WorkspaceIndex } from "./workspace-index.js";

const workspaceScopes = ["@little-stack/", "@little-stack-apps/", "@little-stack-tooling/"];

/**
 * Rule (c): every workspace package a source file imports is declared in its project's
 * package.json, and nothing reaches into another package's files — neither by a relative path
 * leaving the project, nor by a subpath the target does not list in its `exports`.
 */
export function checkImports(index: WorkspaceIndex, testOnly?: TestOnlyTable): BoundaryViolation[] {
  const violations: BoundaryViolation[] = [];
  for (const project of index.projects) {
    const declared = new Set(project.dependencies.map((dependency) => dependency.name));
    const testOnlyFolders = project.kind === "package" ? (testOnly?.get(project.folder!) ?? []) : [];
    for (const sourceFile of project.sourceFiles) {
      for (const specifier of new Set(importSpecifiers(sourceFile.text))) {
        const violation =
          checkSpecifier({ project, declared, index, specifier, file: sourceFile.path }) ??
          checkTestOnlyImport({ index, testOnlyFolders, specifier, file: sourceFile.path });
        if (violation !== undefined) violations.push(violation);
      }
    }
  }
  return violations;
}

const testFilePattern = /(\.test\.ts|\.test-d\.ts)$|\/__fixtures__\//;

/** A package allowed for tests only (`testOnly` in the table) is imported only by test code. */
function checkTestOnlyImport(options: {
  index: WorkspaceIndex;
  testOnlyFolders: readonly string[];
  specifier: string;
  file: string;
}): BoundaryViolation | undefined {
  const { index, testOnlyFolders, specifier, file } = options;
  if (testOnlyFolders.length === 0 || isPathSpecifier(specifier) || testFilePattern.test(file)) return undefined;
  const target = index.byName.get(splitBareSpecifier(specifier).packageName);
  if (target?.kind !== "package" || !testOnlyFolders.includes(target.folder!)) return undefined;
  return {
    rule: "undeclared-import",
    file,
    message: `imports ${target.name}, which this package may use from tests only — import it from a *.test.ts file or __fixtures__/, never from shipped code`,
  };
}

function checkSpecifier(options: {
  project: IndexedProject;
  declared: ReadonlySet<string>;
  index: WorkspaceIndex;
  specifier: string;
  file: string;
}): BoundaryViolation | undefined {
  const { project, declared, index, specifier, file } = options;
  if (isPathSpecifier(specifier)) {
    const resolved = specifier.startsWith("/") ? specifier : posix.normalize(posix.join(posix.dirname(file), specifier));
    if (resolved === project.dir || resolved.startsWith(`${project.dir}/`)) return undefined;
    const owner = index.projects.find((candidate) => resolved === candidate.dir || resolved.startsWith(`${candidate.dir}/`));
    const instead = owner?.name === undefined ? "keep imports inside the project" : `import "${owner.name}" (or a subpath it exports) instead, and declare it`;
    return { rule: "deep-import", file, message: `imports "${specifier}", a path outside ${project.dir} — ${instead}` };
  }

  const { packageName, subpath } = splitBareSpecifier(specifier);
  const target = index.byName.get(packageName);
  if (target === undefined) {
    if (!workspaceScopes.some((scope) => packageName.startsWith(scope))) return undefined;
    return { rule: "undeclared-import", file, message: `imports "${specifier}", but no workspace project is named ${packageName} — fix the name` };
  }
  if (target !== project && !declared.has(packageName)) {
    return {
      rule: "undeclared-import",
      file,
      message: `imports ${packageName}, which ${project.manifest.path} does not declare — add it to dependencies ("workspace:*") and to tsconfig references if the table allows the edge; otherwise do not import it`,
    };
  }
  const exportKeys = target.exportKeys ?? ["."];
  if (!isExportedSubpath(exportKeys, subpath)) {
    const offered = exportKeys.filter((key) => key !== "./package.json").map((key) => (key === "." ? packageName : `${packageName}${key.slice(1)}`));
    return {
      rule: "deep-import",
      file,
      message: `deep-imports "${specifier}", which ${describeProject(target)} does not export — import from ${offered.join(" or ")} (add what you need to its public index)`,
    };
  }
  return undefined;
}
