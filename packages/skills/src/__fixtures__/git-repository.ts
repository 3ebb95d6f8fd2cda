import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" },
  }).trim();
}

/**
 * A real bare repository on local disk with one commit holding `files`, tagged `v1` and on branch
 * `main`. Returns its file:// URL and the commit SHA. No network.
 */
export function createBareRepository(root: string, files: Record<string, string>): { url: string; bare: string; commit: string } {
  const work = join(root, "work");
  mkdirSync(work, { recursive: true });
  git(work, "init", "--quiet", "--initial-branch=main");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  git(work, "add", ".");
  git(work, "commit", "--quiet", "-m", "skills");
  git(work, "tag", "v1");
  const commit = git(work, "rev-parse", "HEAD");
  const bare = join(root, "skills.git");
  git(root, "clone", "--quiet", "--bare", work, bare);
  return { url: `file://${bare}`, bare, commit };
}
