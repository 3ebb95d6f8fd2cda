import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { SkillFetchError } from "./skill-fetch-error.js";

/** How the `git` binary is run when a pinned skill source is not cached yet. */
export type GitOptions = {
  /** Path or name of the git binary (default `"git"`). */
  readonly binary?: string;
  /** Time limit of each git invocation (default 120 000 ms). */
  readonly timeoutMs?: number;
};

/** `<dataDir>/skills-cache`: one directory per commit SHA, holding that commit's tree without `.git`. */
export function skillsCacheRoot(dataDir: string): string {
  return join(dataDir, "skills-cache");
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function runGit(git: GitOptions, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      git.binary ?? "git",
      [...args],
      {
        cwd,
        timeout: git.timeoutMs ?? 120_000,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          ...process.env,
          // Never wait for a password prompt; never run a transport that executes commands.
          GIT_TERMINAL_PROMPT: "0",
          GIT_ALLOW_PROTOCOL: "https:http:ssh:git:file",
        },
      },
      (error, stdout, stderr) => {
        if (error === null) {
          resolvePromise(stdout);
          return;
        }
        const detail = String(stderr || error.message).trim().split("\n").slice(-3).join(" ");
        reject(new SkillFetchError(`git ${args[0]} failed: ${detail}`, { cause: error, details: { args: [...args] } }));
      },
    );
  });
}

export type MaterializeResult = {
  /** `<dataDir>/skills-cache/<sha>`. */
  readonly directory: string;
  /** False when the commit was already cached: git was not called. */
  readonly fetched: boolean;
};

/**
 * Makes `<dataDir>/skills-cache/<commit>/` hold the tree of `commit` from `url`. A cached commit is
 * used as is (a commit's tree never changes). Otherwise: `git init` in a temporary directory next
 * to the cache, `git fetch --depth 1 <url> <commit>`, check out, check `HEAD` is that commit, drop
 * `.git`, and rename into place, so a crash never leaves a half-written cache entry.
 */
export async function materializeGitCommit(options: {
  readonly dataDir: string;
  readonly url: string;
  readonly commit: string;
  readonly git?: GitOptions;
}): Promise<MaterializeResult> {
  const root = skillsCacheRoot(options.dataDir);
  const directory = join(root, options.commit);
  if (await isDirectory(directory)) return { directory, fetched: false };
  await mkdir(root, { recursive: true });
  const work = await mkdtemp(join(root, ".fetch-"));
  const git = options.git ?? {};
  try {
    await runGit(git, ["init", "--quiet"], work);
    try {
      await runGit(git, ["fetch", "--quiet", "--depth", "1", "--no-tags", "--", options.url, options.commit], work);
    } catch (error) {
      throw new SkillFetchError(
        `Could not fetch commit ${options.commit} from ${options.url}: ${(error as Error).message}. Check the URL, your access to it, and that the commit exists there.`,
        { cause: error, details: { url: options.url, commit: options.commit } },
      );
    }
    await runGit(git, ["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", "FETCH_HEAD"], work);
    const head = (await runGit(git, ["rev-parse", "HEAD"], work)).trim();
    if (head !== options.commit) {
      throw new SkillFetchError(`Fetching ${options.commit} from ${options.url} produced commit ${head}; refusing to cache it.`);
    }
    await rm(join(work, ".git"), { recursive: true, force: true });
    try {
      await rename(work, directory);
    } catch (error) {
      // Another process cached the same commit first: its copy is identical.
      if (!(await isDirectory(directory))) throw error;
      await rm(work, { recursive: true, force: true });
    }
    return { directory, fetched: true };
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    if (error instanceof SkillFetchError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && (error as NodeJS.ErrnoException).path === undefined) {
      throw new SkillFetchError(`The git binary "${git.binary ?? "git"}" was not found; install git to use git skill sources.`, { cause: error });
    }
    throw new SkillFetchError(`Could not cache ${options.url}#${options.commit}: ${(error as Error).message}`, { cause: error });
  }
}
