import { LittleWorkflowError } from "@little-stack/canonical";

/** Why the inspector cannot start or serve (a data dir without runs, a port in use, a missing build). */
export class InspectorError extends LittleWorkflowError {
  constructor(code: `inspector.${string}`, message: string, options: { readonly cause?: unknown; readonly details?: Readonly<Record<string, unknown>> } = {}) {
    super(code, message, options);
    this.name = "InspectorError";
  }
}
