import { createRequire } from "node:module";
import { OtelSetupError } from "./otel-setup-error.js";
import { createRunTracer, type RunTracer } from "./run-tracer.js";
import { plannedIdGenerator } from "./span-ids.js";

export type OtlpHttpTracingOptions = {
  /** The collector's OTLP/HTTP traces endpoint, e.g. `http://127.0.0.1:4318/v1/traces`. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Spans per export batch (default 512); they are also sent every `exportIntervalMs` (default 1000). */
  readonly maxExportBatchSize?: number;
  readonly exportIntervalMs?: number;
};

export type OtlpHttpTracing = RunTracer & {
  /** Sends every span ended so far. */
  forceFlush(): Promise<void>;
  /** Ends open run spans, sends everything, and stops the exporter. */
  shutdown(): Promise<void>;
};

/**
 * The ready-made setup: an OpenTelemetry SDK tracer provider of its own (so the deterministic
 * span ids of `createRunTracer` are used: a resumed run continues its trace), a batch span
 * processor and the OTLP/HTTP (JSON) exporter. Needs `@opentelemetry/api`,
 * `@opentelemetry/sdk-trace-base` and `@opentelemetry/exporter-trace-otlp-http` installed.
 */
export async function otlpHttpTracing(options: OtlpHttpTracingOptions): Promise<OtlpHttpTracing> {
  let sdk: typeof import("@opentelemetry/sdk-trace-base");
  let exporterModule: typeof import("@opentelemetry/exporter-trace-otlp-http");
  try {
    // Their CommonJS builds: the ES module builds are for bundlers (extensionless imports), and a
    // runner that resolves the "module" condition (vite, vitest) would load those.
    const require = createRequire(import.meta.url);
    sdk = require("@opentelemetry/sdk-trace-base") as typeof sdk;
    exporterModule = require("@opentelemetry/exporter-trace-otlp-http") as typeof exporterModule;
  } catch (error) {
    throw new OtelSetupError({ packages: ["@opentelemetry/api", "@opentelemetry/sdk-trace-base", "@opentelemetry/exporter-trace-otlp-http"], cause: error });
  }
  const ids = plannedIdGenerator();
  const exporter = new exporterModule.OTLPTraceExporter({ url: options.url, ...(options.headers === undefined ? {} : { headers: { ...options.headers } }) });
  const processor = new sdk.BatchSpanProcessor(exporter, {
    ...(options.maxExportBatchSize === undefined ? {} : { maxExportBatchSize: options.maxExportBatchSize }),
    scheduledDelayMillis: options.exportIntervalMs ?? 1000,
  });
  const provider = new sdk.BasicTracerProvider({ idGenerator: ids, spanProcessors: [processor] });
  const tracer = await createRunTracer({ tracer: provider.getTracer("@little-stack/otel"), planIds: (planned) => ids.plan(planned) });
  return {
    ...tracer,
    forceFlush: () => provider.forceFlush(),
    shutdown: async () => {
      tracer.endOpenRuns();
      await provider.shutdown();
    },
  };
}
