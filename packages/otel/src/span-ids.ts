import { createHash } from "node:crypto";

/**
 * Deterministic trace and span ids, derived from the run and what a span stands for. A run
 * resumed in another process names the same spans by the same ids, so spans exported before a
 * crash and after the resume join one trace, and a span is never exported under two ids.
 */
export function traceIdFor(rootRunId: string): string {
  return digest(`trace\u0000${rootRunId}`).slice(0, 32);
}

export function spanIdFor(...parts: readonly (string | number)[]): string {
  return digest(parts.join("\u0000")).slice(0, 16);
}

function digest(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The ids the next span a tracer starts should get (read by `plannedIdGenerator`). */
export type PlannedSpanIds = { readonly traceId: string; readonly spanId: string };

/**
 * An OpenTelemetry SDK `IdGenerator` that hands out the ids planned for the span being started
 * (the run tracer plans them right before each `startSpan`), random ones otherwise.
 */
export function plannedIdGenerator(): { generateTraceId(): string; generateSpanId(): string; plan(ids: PlannedSpanIds): void } {
  // Each planned id is handed out once (the SDK asks for the span id first, then a trace id for a root span).
  let spanId: string | undefined;
  let traceId: string | undefined;
  const random = (bytes: number) => {
    let id = "";
    for (let index = 0; index < bytes; index += 1) id += Math.floor(Math.random() * 256).toString(16).padStart(2, "0");
    return id;
  };
  return {
    plan(ids) {
      spanId = ids.spanId;
      traceId = ids.traceId;
    },
    generateTraceId() {
      const id = traceId ?? random(16);
      traceId = undefined;
      return id;
    },
    generateSpanId() {
      const id = spanId ?? random(8);
      spanId = undefined;
      return id;
    },
  };
}
