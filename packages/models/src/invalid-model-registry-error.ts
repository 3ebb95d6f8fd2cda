import { ModelsError } from "./models-error.js";

/**
 * A registry entry that cannot be used: a bad key, a negative or over-precise price, a context
 * window that is not a positive integer, a malformed `checkedAt` date, or two entries with the
 * same key. `key` is the entry's `provider/modelId` (or its position when the key itself is bad).
 */
export class InvalidModelRegistryError extends ModelsError {
  readonly key: string;
  readonly field: string;

  constructor(options: { readonly key: string; readonly field: string; readonly problem: string; readonly fix: string }) {
    super(
      "models.invalid_registry_entry",
      `Model registry entry ${options.key}: ${options.field} ${options.problem}. ${options.fix}`,
      { details: { key: options.key, field: options.field } },
    );
    this.key = options.key;
    this.field = options.field;
  }
}
