import { LittleWorkflowError } from "@little-stack/canonical";

/** `appendEvents(runId, events, { durable })` with a `durable` that is not a boolean. */
export class InvalidDurableOptionError extends LittleWorkflowError {
  constructor(value: unknown) {
    super(
      "world.invalid_append_option",
      `appendEvents option "durable" must be true or false (false: the batch may wait for the run's next durable append to reach the disk), got ${typeof value === "string" ? JSON.stringify(value) : typeof value}. Nothing was stored.`,
      { details: { durable: String(value) } },
    );
  }
}

/** Whether an append must be durable when it returns (`durable` of `appendEvents` options, checked; default true). */
export function requireDurable(options: { readonly durable?: unknown } | undefined): boolean {
  if (options === undefined || options === null || typeof options !== "object") return true;
  const { durable } = options;
  if (durable === undefined) return true;
  if (typeof durable !== "boolean") throw new InvalidDurableOptionError(durable);
  return durable;
}
