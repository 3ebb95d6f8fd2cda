import { LittleWorkflowError } from "@little-stack/canonical";

export class ArtifactNotFoundError extends LittleWorkflowError {
  readonly artifactId: string;

  constructor(artifactId: string) {
    super(
      "world.artifact_not_found",
      `Artifact "${artifactId}" does not exist in this world. Check the id and the data dir.`,
      { details: { artifactId } },
    );
    this.artifactId = artifactId;
  }
}

/** Stored bytes or manifest no longer match their digest: the artifact was changed on disk. */
export class ArtifactIntegrityError extends LittleWorkflowError {
  readonly artifactId: string;

  constructor(artifactId: string, problem: string) {
    super(
      "world.artifact_integrity",
      `Artifact "${artifactId}" failed its integrity check: ${problem}. It was modified or damaged outside the world; its contents cannot be trusted.`,
      { details: { artifactId } },
    );
    this.artifactId = artifactId;
  }
}

/** An artifact that cannot be written as given, or read in the requested form. */
export class InvalidArtifactError extends LittleWorkflowError {
  constructor(problem: string, options: { readonly cause?: unknown; readonly path?: string } = {}) {
    super("world.invalid_artifact", `Invalid artifact: ${problem}.`, {
      cause: options.cause,
      details: options.path === undefined ? {} : { path: options.path },
    });
  }
}
