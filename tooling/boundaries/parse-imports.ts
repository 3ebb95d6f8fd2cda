import ts from "typescript";

/**
 * The module specifiers a source file imports: static `import`/`export … from`, `import type`,
 * side-effect imports, `import("literal")` (also in type positions), `require("literal")` and
 * `import x = require()`. TypeScript's own pre-processor does the scanning, so comments, strings
 * and template literals never produce false hits.
 */
export function importSpecifiers(sourceText: string): string[] {
  const info = ts.preProcessFile(sourceText, /* readImportFiles */ true, /* detectJavaScriptImports */ true);
  return info.importedFiles.map((reference) => reference.fileName);
}

export type BareSpecifier = {
  /** `@scope/name` or `name`. */
  readonly packageName: string;
  /** What follows the package name, without the leading slash; `""` for the package root. */
  readonly subpath: string;
};

/** Splits `@scope/name/sub/path` into the package name and the subpath. */
export function splitBareSpecifier(specifier: string): BareSpecifier {
  const segments = specifier.split("/");
  const nameLength = specifier.startsWith("@") ? 2 : 1;
  return {
    packageName: segments.slice(0, nameLength).join("/"),
    subpath: segments.slice(nameLength).join("/"),
  };
}

/** True for `./x`, `../x` and absolute paths: specifiers that name files, not packages. */
export function isPathSpecifier(specifier: string): boolean {
  return specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/");
}
