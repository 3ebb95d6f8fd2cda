/**
 * An in-memory description of the repository: everything the boundary check looks at, already
 * read from disk. The check itself is a pure function over this, so tests can describe small fake
 * repositories without touching the real one.
 */

/** A JSON file as found on disk: its parsed value, or why it could not be read. */
export type JsonDocument = {
  /** Repository-relative POSIX path, e.g. `packages/lwir/package.json`. */
  readonly path: string;
  readonly value?: unknown;
  /** Set when the file is missing or is not valid JSON; `value` is then absent. */
  readonly problem?: string;
};

export type SourceFile = {
  /** Repository-relative POSIX path, e.g. `packages/lwir/src/index.ts`. */
  readonly path: string;
  readonly text: string;
};

/** `package` = a folder under packages/; `app` = under apps/; `tooling` = the tooling folder. */
export type WorkspaceProjectKind = "package" | "app" | "tooling";

export type WorkspaceProject = {
  readonly kind: WorkspaceProjectKind;
  /** Repository-relative POSIX directory, e.g. `packages/lwir`. */
  readonly dir: string;
  readonly manifest: JsonDocument;
  /** Absent when the project has no tsconfig.json. */
  readonly tsconfig?: JsonDocument;
  readonly sourceFiles: readonly SourceFile[];
};

export type RepoDescription = {
  /** The table of allowed edges, `tooling/package-graph.json`. */
  readonly graph: JsonDocument;
  /** The root `package.json`. */
  readonly rootManifest: JsonDocument;
  /** Names of the directories directly under packages/. */
  readonly packageFolders: readonly string[];
  readonly projects: readonly WorkspaceProject[];
};
