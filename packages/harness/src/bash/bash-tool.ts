import { posix } from "node:path";
import { stat } from "node:fs/promises";
import type { Bash, IFileSystem } from "just-bash";
import { LittleWorkflowError } from "@little-stack/canonical";
import { createPathPolicy, ensureMountDirectories, type PathPolicy, type PolicyMount } from "@little-stack/memory";
import type { WorkflowBashCapabilities } from "../contract/mounts.js";
import { bashNetworkConfig, checkBashCapabilities } from "./bash-capabilities.js";
import { BashToolConfigError } from "./bash-tool-config-error.js";
import { truncateOutput } from "./truncate-output.js";

export type BashToolLimits = {
  /** Commands one `execute` may run (loops and pipelines count each command). Default 10 000. */
  readonly maxCommands?: number;
  /** Wall-clock limit of one `execute`, in ms; a call may ask for less, never more. Default 30 000. */
  readonly timeoutMs?: number;
  /** stdout and stderr are each cut to this many UTF-8 bytes, with a note. Default 65 536. */
  readonly maxOutputBytes?: number;
};

/** A skill directory to expose read-only (`skillStaging()` of `@little-stack/skills`). */
export type BashSkillStaging = {
  readonly name: string;
  /** `.agents/skills/<name>/`, relative to the tool's `cwd` (or absolute). */
  readonly mountPath: string;
  readonly hostPath: string;
};

export type CreateBashToolOptions = {
  /** Memory and scratch mounts of the session (`mountsForRole()` of `@little-stack/memory`). */
  readonly mounts: readonly PolicyMount[];
  readonly skills?: readonly BashSkillStaging[];
  /** Working directory of every call unless the call gives one. Default `/mnt/scratch/own`. */
  readonly cwd?: string;
  readonly limits?: BashToolLimits;
  /** Extra environment variables (HOME defaults to `cwd`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Aborts a running call (exit code 130) and refuses new ones: the session's abort signal. */
  readonly abortSignal?: AbortSignal;
  /**
   * What the workflow grants the shell (`defineWorkflow({ bash })`): `network` lets curl reach
   * the allowed URL prefixes (no network without it), `maxCommands` caps the `execute` calls of
   * the whole session, `timeoutMs` caps each call (below `limits.timeoutMs`).
   */
  readonly capabilities?: WorkflowBashCapabilities;
};

export type BashExecuteInput = { readonly cmd: string; readonly cwd?: string; readonly timeoutMs?: number };
export type BashExecuteResult = { stdout: string; stderr: string; exitCode: number };

/** The seed-003 `BashTool`, plus what the session knows about it (for prompts and manifests). */
export type HarnessBashTool = {
  execute(input: BashExecuteInput): Promise<BashExecuteResult>;
  readonly cwd: string;
  /** Every mount the shell sees, skills included (absolute mount paths). */
  readonly mounts: readonly PolicyMount[];
  readonly limits: Required<BashToolLimits>;
  readonly capabilities?: WorkflowBashCapabilities;
};

const justBashDeadlineMarginMs = 500;

/**
 * just-bash and the mount tree over it, loaded on a session's first shell call: importing them
 * cost every process ~8 MB of RSS and ~60 ms, and most runs never call bash.
 */
async function loadShell(): Promise<{ Bash: typeof Bash; buildMountTree: typeof import("./mount-tree.js").buildMountTree }> {
  const [{ Bash: shell }, { buildMountTree }] = await Promise.all([import("just-bash"), import("./mount-tree.js")]);
  return { Bash: shell, buildMountTree };
}

const defaultLimits: Required<BashToolLimits> = { maxCommands: 10_000, timeoutMs: 30_000, maxOutputBytes: 65_536 };
const skillNamePattern = /^[a-z0-9](?:[a-z0-9-]{0,63})$/;

function checkLimits(limits: BashToolLimits | undefined): Required<BashToolLimits> {
  const resolved = { ...defaultLimits, ...limits };
  for (const [key, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new BashToolConfigError(`createBashTool: limits.${key} must be a positive integer, got ${JSON.stringify(value)}.`);
    }
  }
  return resolved;
}

function stagedSkillMounts(skills: readonly BashSkillStaging[], cwd: string): PolicyMount[] {
  const seen = new Set<string>();
  return skills.map((entry, index) => {
    if (typeof entry.name !== "string" || !skillNamePattern.test(entry.name)) {
      throw new BashToolConfigError(`createBashTool: skills[${index}].name ${JSON.stringify(entry.name)} is not a valid skill name.`);
    }
    if (seen.has(entry.name)) throw new BashToolConfigError(`createBashTool: skill "${entry.name}" is staged twice.`);
    seen.add(entry.name);
    const mountPath = posix.resolve(cwd, entry.mountPath).replace(/\/+$/, "");
    return { mountPath, hostPath: entry.hostPath, mode: "ro" as const };
  });
}

function failure(stderr: string, exitCode: number): BashExecuteResult {
  return { stdout: "", stderr: stderr.endsWith("\n") ? stderr : `${stderr}\n`, exitCode };
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * A bash tool over just-bash for one harness session. The shell sees only its mounts: a
 * read-only empty `/`, memory and scratch mounts (rw or ro) and skills staged read-only at
 * `<cwd>/.agents/skills/<name>/`. Every file operation passes the path policy of
 * `@little-stack/memory` (no `..` above `/`, no symlink leaving a mount, no NUL, no case tricks,
 * no writes to read-only mounts or outside mounts). Files persist across calls; shell state (cwd,
 * variables) does not: each call is a fresh script. A refused write, a limit or a timeout comes
 * back as a non-zero exit code with a message on stderr; `execute` never rejects.
 */
export function createBashTool(options: CreateBashToolOptions): HarnessBashTool {
  const cwd = posix.resolve("/", options.cwd ?? "/mnt/scratch/own");
  if (options.cwd !== undefined && !options.cwd.startsWith("/")) {
    throw new BashToolConfigError(`createBashTool: cwd ${JSON.stringify(options.cwd)} must be an absolute virtual path.`);
  }
  const capabilities = options.capabilities === undefined ? undefined : checkBashCapabilities(options.capabilities, "createBashTool: capabilities");
  const given = checkLimits(options.limits);
  const limits: Required<BashToolLimits> = { ...given, timeoutMs: Math.min(given.timeoutMs, capabilities?.timeoutMs ?? given.timeoutMs) };
  const network = bashNetworkConfig(capabilities);
  // Calls this session's shell has started: bash.maxCommands bounds the session, not one script.
  let commandsStarted = 0;
  const mounts: PolicyMount[] = [...options.mounts.map((mount) => ({ mountPath: mount.mountPath, hostPath: mount.hostPath, mode: mount.mode })), ...stagedSkillMounts(options.skills ?? [], cwd)];
  let policy: PathPolicy<PolicyMount>;
  try {
    policy = createPathPolicy(mounts);
  } catch (error) {
    throw new BashToolConfigError(`createBashTool: ${describeError(error)}`, { cause: error });
  }
  const cwdResolution = policy.resolve(cwd, { cwd: "/", access: "read" });
  if (!cwdResolution.ok) throw new BashToolConfigError(`createBashTool: cwd ${cwd} is not usable: ${cwdResolution.message}`);

  let bash: Promise<Bash> | undefined;
  async function ready(): Promise<Bash> {
    bash ??= (async () => {
      const skillMounts = mounts.slice(options.mounts.length);
      for (const mount of skillMounts) {
        const info = await stat(mount.hostPath).catch(() => undefined);
        if (info?.isDirectory() !== true) throw new BashToolConfigError(`Staged skill directory ${mount.hostPath} (${mount.mountPath}/) does not exist.`);
      }
      await ensureMountDirectories(mounts.slice(0, options.mounts.length));
      const { Bash, buildMountTree } = await loadShell();
      const fs: IFileSystem = buildMountTree({ mounts: policy.mounts, policy, onRefusedWrite: (error) => refusedWrites.push(error.message) });
      return new Bash({
        fs,
        cwd,
        env: { HOME: cwd, ...options.env },
        ...(network === undefined ? {} : { network }),
        executionLimits: {
          maxCommandCount: limits.maxCommands,
          // Only a backstop: the per-call timer below owns timeouts (and their message). Were both
          // due at the same moment, a loaded machine could let just-bash's fire first.
          maxExecutionTimeMs: limits.timeoutMs + justBashDeadlineMarginMs,
          maxOutputSize: Math.max(limits.maxOutputBytes * 16, 1024 * 1024),
        },
      });
    })();
    bash.catch(() => {
      bash = undefined;
    });
    return bash;
  }

  // One script at a time: calls on one session's shell are serialized.
  let queue: Promise<unknown> = Promise.resolve();
  /** Writes the path policy refused during the current script (messages, in order). */
  const refusedWrites: string[] = [];

  /**
   * A refused write always shows: some commands swallow the error (`rm -f` ignores every
   * failure), which would report success while nothing changed. Each refusal the script's own
   * stderr does not already name is added, and a zero exit becomes 1.
   */
  function withRefusedWrites(result: BashExecuteResult): BashExecuteResult {
    const unreported = [...new Set(refusedWrites)].filter((message) => !result.stderr.includes(message.replace(/^[A-Z]+: /, "")));
    if (unreported.length === 0) return result;
    return {
      stdout: result.stdout,
      stderr: truncateOutput(`${result.stderr}${unreported.map((message) => `bash: refused: ${message}\n`).join("")}`, limits.maxOutputBytes),
      exitCode: result.exitCode === 0 ? 1 : result.exitCode,
    };
  }

  async function run(input: BashExecuteInput): Promise<BashExecuteResult> {
    if (typeof input !== "object" || input === null || typeof input.cmd !== "string") {
      return failure("bash: the tool input needs a string field cmd", 2);
    }
    if (input.cmd.includes("\0")) return failure("bash: the command contains a NUL byte", 2);
    if (isAborted(options.abortSignal)) return failure("bash: the session was aborted", 130);
    if (capabilities?.maxCommands !== undefined && commandsStarted >= capabilities.maxCommands) {
      return failure(`bash: this session may run ${capabilities.maxCommands} command${capabilities.maxCommands === 1 ? "" : "s"} (bash.maxCommands) and has run them all`, 1);
    }
    commandsStarted += 1;
    let callCwd = cwd;
    if (input.cwd !== undefined) {
      const resolution = policy.resolve(input.cwd, { cwd, access: "read" });
      if (!resolution.ok) return failure(`bash: cwd: ${resolution.message}`, 1);
      callCwd = resolution.virtualPath;
    }
    const timeoutMs = Math.min(
      typeof input.timeoutMs === "number" && input.timeoutMs > 0 ? Math.floor(input.timeoutMs) : limits.timeoutMs,
      limits.timeoutMs,
    );
    let shell: Bash;
    try {
      shell = await ready();
    } catch (error) {
      return failure(`bash: the shell could not start: ${describeError(error)}`, 1);
    }
    const timeout = new AbortController();
    const signal = options.abortSignal === undefined ? timeout.signal : AbortSignal.any([timeout.signal, options.abortSignal]);
    let hardDeadline: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    refusedWrites.length = 0;
    try {
      const execution = shell.exec(input.cmd, { cwd: callCwd, signal });
      execution.catch(() => undefined);
      // If a command ignores the abort signal, give up waiting a second after the deadline.
      const gaveUp = new Promise<"gave-up">((resolve) => {
        hardDeadline = setTimeout(() => resolve("gave-up"), timeoutMs + 1000);
      });
      const result = await Promise.race([execution, gaveUp]);
      if (result === "gave-up" || timeout.signal.aborted) {
        const partial = result === "gave-up" ? { stdout: "", stderr: "" } : result;
        return {
          stdout: truncateOutput(partial.stdout, limits.maxOutputBytes),
          stderr: truncateOutput(`${partial.stderr}bash: timed out after ${timeoutMs} ms\n`, limits.maxOutputBytes),
          exitCode: 124,
        };
      }
      if (isAborted(options.abortSignal)) {
        return { stdout: truncateOutput(result.stdout, limits.maxOutputBytes), stderr: `${truncateOutput(result.stderr, limits.maxOutputBytes)}bash: the session was aborted\n`, exitCode: 130 };
      }
      return withRefusedWrites({
        stdout: truncateOutput(result.stdout, limits.maxOutputBytes),
        stderr: truncateOutput(result.stderr, limits.maxOutputBytes),
        exitCode: result.exitCode,
      });
    } catch (error) {
      // just-bash rejects (instead of returning an exit code) when a redirection writes into a
      // read-only file system; the model gets the refusal like any other failed command.
      if (timeout.signal.aborted) return failure(`bash: timed out after ${timeoutMs} ms`, 124);
      const message = LittleWorkflowError.is(error) ? error.message : describeError(error);
      return failure(`bash: ${message}`, 1);
    } finally {
      clearTimeout(timer);
      if (hardDeadline !== undefined) clearTimeout(hardDeadline);
    }
  }

  return {
    cwd,
    mounts: policy.mounts,
    limits,
    ...(capabilities === undefined ? {} : { capabilities }),
    execute(input) {
      const next = queue.then(() => run(input));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
