import type { EventEnvelope } from "@little-stack/local-world";
import { eventStepPath } from "../inspect/event-step-path.js";
import { printable } from "../printable-text.js";

type Payload = Record<string, unknown>;

type StepTokens = { inputTokens: number; cachedInputTokens: number; outputTokens: number };

/**
 * How progress is shown:
 * - `live` (a terminal): a line when a step starts, completes (duration, tokens), fails or is
 *   retried — coalesced when steps go by faster than a person reads (more than 5 step lines in a
 *   second): completions are then grouped into one line per quarter second and starts are left out.
 *   A start whose end comes before it was written is left out too (the end line says it all).
 *   Durations are the attempt's own, from the log (`StepAttemptStarted.startedAt` to the end
 *   event's `recordedAt`), not the time between the events' arrival: a tool.call step's events
 *   are all committed at its end.
 * - `steps` (not a terminal: CI, pipes): at most one line per step boundary (completed, failed,
 *   retried) plus the run's start and end; never one per event.
 * - `events`: every committed event as one JSON line (`{ eventId, runId, sequence, type,
 *   recordedAt, payload }`), the complete machine-readable stream.
 * - `none`: nothing.
 * Lines are written in batches (every 100 ms, and by `flush()`), so a fast run does not make a
 * write call per line.
 */
export type ProgressMode = "live" | "steps" | "events" | "none";

export const progressModes: readonly ProgressMode[] = ["live", "steps", "events", "none"];

/** Step lines within this window that switch a terminal to coalesced output. */
const burstLines = 5;
const burstWindowMs = 1_000;
const groupEveryMs = 250;
const flushEveryMs = 100;

/** Turns the events of a run, as they are committed, into progress on stderr (see `ProgressMode`). */
export class ProgressPrinter {
  readonly #write: (text: string) => void;
  readonly #mode: ProgressMode;
  readonly #now: () => number;
  /**
   * When each step path's attempt started: `StepAttemptStarted.startedAt` when the event has it, so
   * a duration is the step's own, read off the log (a tool.call step's events are committed
   * together at its end, so the time they reach the printer says nothing of when it started);
   * otherwise the printer's clock when the event came.
   */
  readonly #startedAt = new Map<string, { readonly at: number; readonly fromLog: boolean }>();
  /** Live "started" lines still in the buffer, by step path, with the clock when they were emitted. */
  readonly #startLines = new Map<string, { readonly line: string; readonly at: number }>();
  readonly #recentStepLines: number[] = [];
  /**
   * Whether a fixer session may start: only a `code.run` step has a fixer, so until one is
   * scheduled (or the run resumed, when steps scheduled before the crash are not seen) a
   * `harness.session.started` is not parsed to read its role — its payload carries the session's
   * whole manifest, the largest a step logs.
   */
  #fixersPossible = false;
  #buffer: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #group: { count: number; first: string; last: string; totalMs: number; since: number } | undefined;

  /**
   * `write` receives whole lines, each ending in a newline, several at a time (one call per batch).
   * `mode` defaults to `live` when `live` is true, else `steps`.
   */
  constructor(options: { write: (text: string) => void; live?: boolean; mode?: ProgressMode; now?: () => number }) {
    this.#write = options.write;
    this.#mode = options.mode ?? (options.live === true ? "live" : "steps");
    this.#now = options.now ?? Date.now;
  }

  get mode(): ProgressMode {
    return this.#mode;
  }

  /** Says what a resumed run already has, before any new event. */
  resuming(options: { runId: string; eventCount: number; completedSteps: readonly string[] }): void {
    this.#fixersPossible = true;
    if (this.#mode === "none" || this.#mode === "events") return;
    const steps = options.completedSteps.length === 0 ? "none" : options.completedSteps.join(", ");
    this.#emit(`resuming ${options.runId}: ${options.eventCount} events recorded; completed steps reused: ${steps}`);
    this.flush();
  }

  events(events: readonly EventEnvelope[]): void {
    if (this.#mode === "none") return;
    for (const event of events) {
      if (this.#mode === "events") {
        this.#buffer.push(jsonLine(event));
        continue;
      }
      const line = this.#stepLine(event);
      if (line !== undefined) this.#emit(line);
    }
    if (this.#buffer.length > 0 || this.#group !== undefined) this.#schedule();
  }

  /** Writes what is buffered (and a pending group of completions). Call once the run has ended. */
  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#flushGroup();
    if (this.#buffer.length === 0) return;
    const text = `${this.#buffer.join("\n")}\n`;
    this.#buffer = [];
    this.#write(text);
  }

  #emit(line: string): void {
    // Step paths and error messages come from the run: never let them drive the terminal.
    this.#buffer.push(printable(line));
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flush();
    }, flushEveryMs);
    this.#timer.unref?.();
  }

  /** True while step lines come faster than a person reads (terminal only). */
  #bursting(now: number): boolean {
    if (this.#mode !== "live") return false;
    const recent = this.#recentStepLines;
    return recent.length >= burstLines && now - recent[recent.length - burstLines]! < burstWindowMs;
  }

  #stepLineShown(now: number): void {
    this.#recentStepLines.push(now);
    if (this.#recentStepLines.length > burstLines) this.#recentStepLines.shift();
  }

  #flushGroup(): void {
    const group = this.#group;
    if (group === undefined) return;
    this.#group = undefined;
    const average = formatDuration(group.totalMs / group.count);
    this.#emit(group.count === 1 ? `  ✓ ${group.first}  ${average}` : `  ✓ ${group.count} steps  ${group.first} … ${group.last}  (${average} each on average)`);
  }

  /**
   * The duration of the step path's attempt that `event` (its StepCompleted or StepFailed) ends —
   * from the log's times when its start came with one, else by the printer's clock — or undefined
   * when its start is not known here (it started before a crash). A live "started" line for it
   * that is still unwritten and less than a flush old is taken back: the end line says it all (a
   * tool.call step's start and end are committed together, at its end).
   */
  #endAttempt(stepPath: string, event: EventEnvelope, now: number): number | undefined {
    const started = this.#startedAt.get(stepPath);
    this.#startedAt.delete(stepPath);
    const startLine = this.#startLines.get(stepPath);
    this.#startLines.delete(stepPath);
    if (startLine !== undefined && now - startLine.at < flushEveryMs) {
      const index = this.#buffer.lastIndexOf(startLine.line);
      if (index !== -1) this.#buffer.splice(index, 1);
    }
    if (started === undefined) return undefined;
    const ended = started.fromLog ? Date.parse(event.recordedAt) : now;
    return Number.isFinite(ended) ? ended - started.at : now - started.at;
  }

  #stepLine(event: EventEnvelope): string | undefined {
    // Payloads are read only for the events that print something (they are parsed on first read).
    const payloadOf = (): Payload => (event.payload ?? {}) as Payload;
    const live = this.#mode === "live";
    switch (event.type) {
      case "RunStarted":
        return `run ${event.runId} started`;
      case "StepScheduled": {
        if (!this.#fixersPossible) {
          const uses = payloadOf()["uses"];
          // An announcement without `uses` (a log written otherwise) may be a code.run step's.
          this.#fixersPossible = uses === "code.run" || typeof uses !== "string";
        }
        return undefined;
      }
      case "StepAttemptStarted": {
        const payload = payloadOf();
        const stepPath = eventStepPath(payload) ?? "";
        const now = this.#now();
        const logged = Date.parse(String(payload["startedAt"]));
        this.#startedAt.set(stepPath, Number.isFinite(logged) ? { at: logged, fromLog: true } : { at: now, fromLog: false });
        const attempt = Number(payload["attempt"] ?? 1);
        if (attempt > 1) return `  ↻ ${stepPath} retry (attempt ${attempt})`;
        // Starts are for a person watching: not in piped output, not while steps fly by.
        if (!live || this.#bursting(now)) return undefined;
        this.#stepLineShown(now);
        const line = `  ▸ ${stepPath} started`;
        this.#startLines.set(stepPath, { line: printable(line), at: now });
        return line;
      }
      case "StepCompleted": {
        const payload = payloadOf();
        const stepPath = eventStepPath(payload) ?? "";
        const now = this.#now();
        const elapsedMs = this.#endAttempt(stepPath, event, now);
        const metadata = (payload["metadata"] ?? {}) as Payload;
        const tokens = formatTokens(metadata["usage"] as StepTokens | undefined);
        const fixed = typeof payload["fixedSource"] === "string" ? "  (fixed by the fixer)" : "";
        if (this.#bursting(now) && elapsedMs !== undefined && tokens === "" && fixed === "") {
          const group = (this.#group ??= { count: 0, first: stepPath, last: stepPath, totalMs: 0, since: now });
          group.count += 1;
          group.last = stepPath;
          group.totalMs += elapsedMs;
          if (now - group.since >= groupEveryMs) this.#flushGroup();
          return undefined;
        }
        this.#flushGroup();
        this.#stepLineShown(now);
        // An attempt started before a crash has no start time in this process.
        const elapsed = elapsedMs === undefined ? "(resumed)" : formatDuration(elapsedMs);
        return `  ✓ ${stepPath}  ${elapsed}${tokens}${fixed}`;
      }
      case "StepFailed": {
        const payload = payloadOf();
        const stepPath = eventStepPath(payload) ?? "";
        const elapsedMs = this.#endAttempt(stepPath, event, this.#now());
        const error = (payload["error"] ?? {}) as Payload;
        this.#flushGroup();
        const elapsed = elapsedMs === undefined ? "(resumed)" : formatDuration(elapsedMs);
        return `  ✗ ${stepPath}  ${elapsed}  ${String(error["name"] ?? "Error")}: ${oneLine(String(error["message"] ?? ""))}`;
      }
      case "harness.session.started": {
        if (!this.#fixersPossible) return undefined;
        const payload = payloadOf();
        return payload["role"] === "fixer" ? `  ⚒ ${eventStepPath(payload) ?? ""} fixer session started` : undefined;
      }
      case "RunCompleted":
        this.#flushGroup();
        return "run completed";
      case "RunFailed": {
        const payload = payloadOf();
        this.#flushGroup();
        const error = (payload["error"] ?? {}) as Payload;
        return `run failed (${String(error["causeCode"] ?? "?")}): ${oneLine(String(error["message"] ?? ""))}`;
      }
      default:
        return undefined;
    }
  }
}

/**
 * An event as one NDJSON line, the shape `little events` prints. JSON.stringify escapes C0
 * controls; the C1 range (a terminal's 8-bit CSI) is escaped too, still as valid JSON.
 */
function jsonLine(event: EventEnvelope): string {
  const line = JSON.stringify({ eventId: event.eventId, runId: event.runId, sequence: event.sequence, type: event.type, recordedAt: event.recordedAt, payload: event.payload });
  return c1Controls.test(line) ? line.replace(c1ControlsGlobal, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`) : line;
}

// eslint-disable-next-line no-control-regex
const c1Controls = /[\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const c1ControlsGlobal = /[\u007f-\u009f]/g;

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
