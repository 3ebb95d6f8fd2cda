import { LittleWorkflowError } from "@little-stack/canonical";

/**
 * A failure written into an event: plain JSON, never a live Error (stack traces stay out of the
 * log so that two runs of the same failure record the same bytes).
 */
export type ErrorEnvelope = {
  readonly name: string;
  readonly message: string;
  /** The stable `code` of a LittleWorkflowError, when the failure was one. */
  readonly code?: string;
  readonly causeCode?: string;
  readonly retriable?: boolean;
};

/** Turns anything thrown into an ErrorEnvelope. */
export function toErrorEnvelope(error: unknown): ErrorEnvelope {
  if (LittleWorkflowError.is(error)) {
    return { name: error.name, message: error.message, code: error.code };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: typeof error === "string" ? error : safeString(error) };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
