import { LittleWorkflowError } from "@little-stack/canonical";

/** A tool name providers would refuse (OpenAI-compatible APIs accept `[A-Za-z0-9_-]{1,64}`). */
export class InvalidToolNameError extends LittleWorkflowError {
  constructor(name: string) {
    super(
      "harness.invalid_tool_name",
      `Tool name ${JSON.stringify(name)} is invalid: use 1 to 64 letters, digits, "_" or "-", starting with a letter or "_".`,
      { details: { name } },
    );
  }
}

/** Two tools with the same name (compared case-insensitively: models confuse them). */
export class DuplicateToolError extends LittleWorkflowError {
  constructor(options: { name: string; existing: string }) {
    super(
      "harness.duplicate_tool",
      `Tool "${options.name}" is registered twice (it collides with "${options.existing}"); rename one of them.`,
      { details: { ...options } },
    );
  }
}

/** A registry entry is not an AI SDK tool (made with `tool({ description, inputSchema, execute })`). */
export class NotAToolError extends LittleWorkflowError {
  constructor(name: string) {
    super("harness.not_a_tool", `Registry entry "${name}" is not an AI SDK tool: create it with tool({ description, inputSchema, execute }).`, {
      details: { name },
    });
  }
}

export class UnknownToolError extends LittleWorkflowError {
  constructor(options: { name: string; available: readonly string[] }) {
    super(
      "harness.unknown_tool",
      `No tool named "${options.name}" is registered; available: ${options.available.length === 0 ? "(none)" : options.available.join(", ")}.`,
      { details: { ...options } },
    );
  }
}

/** A tool has no `execute`, so it can be described to a model but not called. */
export class ToolNotExecutableError extends LittleWorkflowError {
  constructor(name: string) {
    super("harness.tool_not_executable", `Tool "${name}" has no execute function, so it cannot be called directly.`, { details: { name } });
  }
}

/** Arguments given to a registered tool do not match its input schema. */
export class ToolInputValidationError extends LittleWorkflowError {
  constructor(options: { name: string; problem: string }) {
    super("harness.tool_input_invalid", `Arguments for tool "${options.name}" do not match its input schema: ${options.problem}`, {
      details: { ...options },
    });
  }
}
