import type { EventEnvelope } from "@little-stack/local-world";
import { eventStepPath } from "../inspect/event-step-path.js";
import { printable } from "../printable-text.js";

type Payload = Record<string, unknown>;

type StepTokens = { inputTokens: number; cachedInputTokens: number; outputTokens: number };

/**
 * Turns the events of a run, as they are appended, into progress lines on stderr. On a terminal:
 * one readable line when a step starts, completes (duration, tokens), fails or is retried. Not on
 * a terminal (CI, pipes): one compact line per event, `#<sequence> <type> [<stepPath>]`.
 */
export class ProgressPrinter {
  readonly #write: (line: string) => void;
  readonly #live: boolean;
  readonly #now: () => number;
  readonly #startedAt = new Map<string, number>();

  constructor(options: { write: (line: string) => void; live: boolean; now?: () => number }) {
    // Step paths and error messages come from the run: never let them drive the terminal.
    const write = options.write;
    this.#write = (line) => write(printable(line));
    this.#live = options.live;
    this.#now = options.now ?? Date.now;
  }

  /** Says what a resumed run already has, before any new event. */
  resuming(options: { runId: string; eventCount: number; completedSteps: readonly string[] }): void {
    const steps = options.completedSteps.length === 0 ? "none" : options.completedSteps.join(", ");
    this.#write(`resuming ${options.runId}: ${options.eventCount} events recorded; completed steps reused: ${steps}`);
  }

  events(events: readonly EventEnvelope[]): void {
    for (const event of events) {
      const line = this.#live ? this.#liveLine(event) : compactLine(event);
      if (line !== undefined) this.#write(line);
    }
  }

  #liveLine(event: EventEnvelope): string | undefined {
    const payload = (event.payload ?? {}) as Payload;
    const stepPath = eventStepPath(payload) ?? "";
    switch (event.type) {
      case "RunStarted":
        return `run ${event.runId} started`;
      case "StepAttemptStarted": {
        this.#startedAt.set(stepPath, this.#now());
        const attempt = Number(payload["attempt"] ?? 1);
        return attempt > 1 ? `  ↻ ${stepPath} retry (attempt ${attempt})` : `  ▸ ${stepPath} started`;
      }
      case "StepCompleted": {
        const metadata = (payload["metadata"] ?? {}) as Payload;
        const tokens = formatTokens(metadata["usage"] as StepTokens | undefined);
        const fixed = typeof payload["fixedSource"] === "string" ? "  (fixed by the fixer)" : "";
        return `  ✓ ${stepPath}  ${this.#elapsed(stepPath)}${tokens}${fixed}`;
      }
      case "StepFailed": {
        const error = (payload["error"] ?? {}) as Payload;
        return `  ✗ ${stepPath}  ${this.#elapsed(stepPath)}  ${String(error["name"] ?? "Error")}: ${oneLine(String(error["message"] ?? ""))}`;
      }
      case "harness.session.started":
        return payload["role"] === "fixer" ? `  ⚒ ${stepPath} fixer session started` : undefined;
      case "RunCompleted":
        return `run completed`;
      case "RunFailed": {
        const error = (payload["error"] ?? {}) as Payload;
        return `run failed (${String(error["causeCode"] ?? "?")}): ${oneLine(String(error["message"] ?? ""))}`;
      }
      default:
        return undefined;
    }
  }

  #elapsed(stepPath: string): string {
    const started = this.#startedAt.get(stepPath);
    // An attempt started before a crash has no start time in this process.
    return started === undefined ? "(resumed)" : formatDuration(this.#now() - started);
  }
}

function compactLine(event: EventEnvelope): string {
  const payload = (event.payload ?? {}) as Payload;
  const path = eventStepPath(payload);
  const stepPath = path === undefined || path === "" ? "" : ` ${path}`;
  return `#${event.sequence} ${event.type}${stepPath}`;
}

export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.max(0, Math.round(milliseconds))}ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)}s`;
  const minutes = Math.floor(milliseconds / 60_000);
  return `${minutes}m${Math.round((milliseconds % 60_000) / 1000)}s`;
}

function formatTokens(usage: StepTokens | undefined): string {
  if (usage === undefined) return "";
  return `  tokens in ${usage.inputTokens} (cached ${usage.cachedInputTokens}) / out ${usage.outputTokens}`;
}

function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, " ");
}
