import { LittleWorkflowError } from "@little-stack/canonical";

/** An OpenTelemetry package this feature needs is not installed (they are optional peers). */
export class OtelSetupError extends LittleWorkflowError {
  constructor(options: { readonly packages: readonly string[]; readonly cause: unknown }) {
    super("otel.missing_package", `Tracing runs needs ${options.packages.join(", ")}: install ${options.packages.map((name) => name).join(" ")} next to @little-stack/otel (they are optional peer dependencies).`, { cause: options.cause, details: { packages: [...options.packages] } });
    this.name = "OtelSetupError";
  }
}
