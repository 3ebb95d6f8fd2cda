import { SandboxInvalidOptionsError } from "./errors/run-errors.js";

/** Resource limits of one execution. Every field is a positive integer. */
export type SandboxLimits = {
  /** Wall-clock budget of one execution, tool calls included. */
  timeoutMs: number;
  /** Fixed maximum of the execution's WebAssembly.Memory (at least 16 MiB, the engine's floor). */
  memoryBytes: number;
  /** Largest accepted output, measured as UTF-8 bytes of its JSON text. */
  maxOutputBytes: number;
  /** Most tool calls one execution may make; later calls are refused inside the guest. */
  maxToolCalls: number;
  /** QuickJS stack budget; deep recursion past it is a guest `InternalError: stack overflow`. */
  stackBytes: number;
  /** Most bytes of guest console output kept; the rest is dropped with a marker line. */
  maxLogBytes: number;
  /** How long after the deadline the host waits for the worker to report before terminating it. */
  deadlineGraceMs: number;
};

const mebibyte = 1024 * 1024;
/** The QuickJS build imports a memory of at least 256 pages of 64 KiB. */
export const minimumMemoryBytes = 16 * mebibyte;
const maximumMemoryBytes = 2048 * mebibyte;

export const defaultSandboxLimits: SandboxLimits = Object.freeze({
  timeoutMs: 30_000,
  memoryBytes: 64 * mebibyte,
  maxOutputBytes: 1 * mebibyte,
  maxToolCalls: 100,
  stackBytes: 256 * 1024,
  maxLogBytes: 64 * 1024,
  deadlineGraceMs: 250,
});

const bounds: Record<keyof SandboxLimits, readonly [number, number]> = {
  timeoutMs: [1, 24 * 60 * 60 * 1000],
  memoryBytes: [minimumMemoryBytes, maximumMemoryBytes],
  maxOutputBytes: [1, 512 * mebibyte],
  maxToolCalls: [0, 1_000_000],
  stackBytes: [16 * 1024, 1 * mebibyte],
  maxLogBytes: [0, 64 * mebibyte],
  deadlineGraceMs: [0, 60_000],
};

/** Defaults overlaid with `overrides`; throws SandboxInvalidOptionsError naming the bad limit. */
export function resolveSandboxLimits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  const limits: SandboxLimits = { ...defaultSandboxLimits };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!(key in bounds)) {
      throw new SandboxInvalidOptionsError(
        `Unknown sandbox limit "${key}". Known limits: ${Object.keys(bounds).join(", ")}.`,
        { details: { limit: key } },
      );
    }
    const [minimum, maximum] = bounds[key as keyof SandboxLimits];
    if (typeof value !== "number" || !Number.isInteger(value) || value < minimum || value > maximum) {
      throw new SandboxInvalidOptionsError(
        `Sandbox limit ${key} must be an integer from ${minimum} to ${maximum}; got ${String(value)}.`,
        { details: { limit: key, value, minimum, maximum } },
      );
    }
    limits[key as keyof SandboxLimits] = value;
  }
  return limits;
}
