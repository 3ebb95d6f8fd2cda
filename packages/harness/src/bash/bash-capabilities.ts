import type { NetworkConfig } from "just-bash";
import type { WorkflowBashCapabilities } from "../contract/mounts.js";
import { BashToolConfigError } from "./bash-tool-config-error.js";

/** The HTTP methods the shell's curl can be allowed (just-bash's list). */
export const bashNetworkMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;
type BashNetworkMethod = (typeof bashNetworkMethods)[number];

const capabilityKeys = new Set(["network", "maxCommands", "timeoutMs"]);
const networkKeys = new Set(["allow", "methods", "denyPrivateRanges"]);

/**
 * Checks a workflow's `bash` capabilities (`defineWorkflow({ bash })`) and returns them as given.
 * Anything the shell cannot honour is refused here, by name, instead of being hashed into the
 * manifests and ignored: an unknown key, an allow entry that is not an http(s) origin with an
 * optional path prefix, an unknown method, a non-boolean `denyPrivateRanges`, a limit that is not
 * a positive integer.
 */
export function checkBashCapabilities(value: unknown, field = "bash"): WorkflowBashCapabilities {
  const found = bashCapabilityProblem(value);
  if (found !== undefined) throw new BashToolConfigError(`${field}${found.path} ${found.problem}`);
  return value as WorkflowBashCapabilities;
}

/** The first thing wrong with `bash` capabilities (`path` below `bash`, e.g. `.network.allow[0]`), or undefined. */
export function bashCapabilityProblem(value: unknown): { readonly path: string; readonly problem: string } | undefined {
  try {
    problems(value);
    return undefined;
  } catch (found) {
    if (found instanceof Found) return { path: found.path, problem: found.problem };
    throw found;
  }
}

class Found {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {}
}

function problems(value: unknown): void {
  const fail = (where: string, problem: string): never => {
    throw new Found(where, problem);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail("", `must be an object { network?, maxCommands?, timeoutMs? }, got ${describe(value)}.`);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!capabilityKeys.has(key)) fail(`.${key}`, `is not a bash capability the shell can honour (it knows network, maxCommands, timeoutMs).`);
  for (const key of ["maxCommands", "timeoutMs"] as const) {
    const limit = record[key];
    if (limit !== undefined && (!Number.isSafeInteger(limit) || (limit as number) <= 0)) fail(`.${key}`, `must be a positive integer, got ${describe(limit)}.`);
  }
  const network = record["network"];
  if (network !== undefined) {
    if (typeof network !== "object" || network === null || Array.isArray(network)) fail(".network", `must be an object { allow, methods?, denyPrivateRanges? }, got ${describe(network)}.`);
    const entries = network as Record<string, unknown>;
    for (const key of Object.keys(entries)) if (!networkKeys.has(key)) fail(`.network.${key}`, "is not a network option the shell can honour (it knows allow, methods, denyPrivateRanges).");
    const allow = entries["allow"];
    if (!Array.isArray(allow) || allow.length === 0) fail(".network.allow", `must be a non-empty array of URL prefixes ("https://api.example.com/v1/"), got ${describe(allow)}.`);
    (allow as unknown[]).forEach((entry, index) => {
      const problem = urlPrefixProblem(entry);
      if (problem !== undefined) fail(`.network.allow[${index}]`, problem);
    });
    const methods = entries["methods"];
    if (methods !== undefined) {
      if (!Array.isArray(methods) || methods.length === 0) fail(".network.methods", `must be a non-empty array of HTTP methods, got ${describe(methods)}.`);
      (methods as unknown[]).forEach((method, index) => {
        if (typeof method !== "string" || !(bashNetworkMethods as readonly string[]).includes(method)) fail(`.network.methods[${index}]`, `is ${describe(method)}: use one of ${bashNetworkMethods.join(", ")} (upper case).`);
      });
    }
    const deny = entries["denyPrivateRanges"];
    if (deny !== undefined && typeof deny !== "boolean") fail(".network.denyPrivateRanges", `must be a boolean, got ${describe(deny)}.`);
  }
}

/**
 * The shell's network configuration for the capabilities: curl reaches only URLs under an
 * allowed prefix, with the allowed methods (default GET and HEAD), redirects are checked hop by
 * hop against the same list, and private and loopback addresses are refused unless
 * `denyPrivateRanges: false` says otherwise. Undefined (no network at all) without `network`.
 */
export function bashNetworkConfig(capabilities: WorkflowBashCapabilities | undefined): NetworkConfig | undefined {
  const network = capabilities?.network;
  if (network === undefined) return undefined;
  return {
    allowedUrlPrefixes: [...network.allow],
    allowedMethods: [...(network.methods ?? ["GET", "HEAD"])] as BashNetworkMethod[],
    denyPrivateRanges: network.denyPrivateRanges ?? true,
  };
}

function urlPrefixProblem(entry: unknown): string | undefined {
  if (typeof entry !== "string") return `must be a URL prefix string, got ${describe(entry)}.`;
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return `is ${JSON.stringify(entry)}, not an absolute URL: give a full origin with an optional path prefix ("https://api.example.com/v1/").`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `is ${JSON.stringify(entry)}: only http and https URLs can be allowed.`;
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") return `is ${JSON.stringify(entry)}: a prefix has no credentials, query or fragment.`;
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return `a ${typeof value}`;
}
