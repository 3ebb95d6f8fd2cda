import type { LwirFindingCode } from "./findings.js";
import type { JsonSchema } from "./schema/json-schema.js";
import type { LwirOutputMode } from "./schema/output-mode.js";

/** The only LWIR version this package reads and writes. */
export const LWIR_API_VERSION = "littleworkflow.dev/v0.1";
export const LWIR_KIND = "Workflow";

/** Every `uses` value of LWIR v0.1, in the order lwir.md §2 lists them. */
export const LWIR_STEP_TYPES = ["ai.generate", "tool.call", "code.run", "decision", "parallel"] as const;
export type LwirStepType = (typeof LWIR_STEP_TYPES)[number];

/** A JSON Schema from the supported subset (lwir.md §5): an object schema or a boolean schema. */
export type LwirJsonSchema = JsonSchema;

export type LwirMetadata = {
  /** Must equal the workflow id at compile time. */
  readonly name: string;
  readonly version?: string;
  readonly description?: string;
};

export type LwirSchemaSection = { readonly schema: LwirJsonSchema };

export type LwirPermissions = {
  /** Model slot ids every `ai.generate` step and fixer is checked against. */
  readonly models?: readonly string[];
  /** Tool ids every `tool.call` step is checked against. */
  readonly tools?: readonly string[];
  /** Must be empty in v0.1 (not implemented yet). */
  readonly secrets?: readonly string[];
  /** Must be empty in v0.1 (not implemented yet). */
  readonly network?: readonly string[];
};

export type LwirBackoff = {
  readonly initialMs: number;
  readonly factor: number;
  readonly maxMs: number;
};

export type LwirRetryPolicy = {
  /** Integer 1..10; 1 means no retry. */
  readonly maxAttempts: number;
  readonly backoff?: LwirBackoff;
};

export type LwirFixerConfig = {
  /** Model slot id; must be in `permissions.models`. */
  readonly model: string;
  /** Integer >= 1. */
  readonly maxAttempts: number;
  /** Non-empty system prompt of the fixer session. */
  readonly system: string;
};

export type LwirOnFailure = { readonly fixer?: LwirFixerConfig };

/** Fields every step shares (lwir.md §2). */
export type LwirStepCommon = {
  /** Non-empty; no `.`, `[`, `]` or `@attempt_`; unique within its list. */
  readonly id: string;
  /** Sibling step ids (a parallel body may also name the parallel step's own needs). Default `[]`. */
  readonly needs?: readonly string[];
  /** Step input, any JSON; `{{ }}` expressions are resolved. */
  readonly input?: unknown;
  /** Integer 1..100, default 1. Above 1 the step may be revisited through a decision back-edge. */
  readonly maxVisits?: number;
  readonly retry?: LwirRetryPolicy;
  /** Reserved: redact this step's values in logs. */
  readonly sensitive?: boolean;
};

export type LwirAiGenerateStep = LwirStepCommon & {
  readonly uses: "ai.generate";
  readonly with: {
    readonly model: string;
    readonly prompt: string;
    readonly system?: string;
  };
  readonly output: LwirOutputMode;
  readonly onFailure?: LwirOnFailure;
};

export type LwirToolCallStep = LwirStepCommon & {
  readonly uses: "tool.call";
  readonly with: {
    readonly tool: string;
    readonly args?: unknown;
  };
  readonly output: LwirOutputMode;
  readonly onFailure?: LwirOnFailure;
};

export type LwirCodeFile = {
  readonly content: string;
  /** `"sha256:" + hex(sha256(utf8(content)))`. */
  readonly sha256: string;
};

/** `"deny"` everywhere; `false` is accepted as a synonym of `"deny"`. */
export type LwirSandboxDeny = "deny" | false;

export type LwirSandboxPolicy = {
  readonly network: LwirSandboxDeny;
  readonly env?: LwirSandboxDeny;
  readonly fs?: LwirSandboxDeny;
};

export type LwirCodeRunStep = LwirStepCommon & {
  readonly uses: "code.run";
  readonly with: {
    /** Safe relative path ending `.ts` or `.js`; a key of `files`. */
    readonly entrypoint: string;
    readonly files: { readonly [path: string]: LwirCodeFile };
    readonly sandbox: LwirSandboxPolicy;
  };
  readonly output: LwirOutputMode;
  readonly onFailure?: LwirOnFailure;
};

export type LwirDecisionCase = {
  /** Exactly one `{{ expr }}` template. */
  readonly when: string;
  /** A step id of the same list, or `"end"`. */
  readonly to: string;
};

export type LwirDecisionStep = LwirStepCommon & {
  readonly uses: "decision";
  readonly with: {
    readonly cases: readonly LwirDecisionCase[];
    readonly default: string;
  };
  /** Decisions never declare an output: their result is always `{ chosen }`. */
  readonly output?: never;
  readonly onFailure?: LwirOnFailure;
};

/** The committed result of a decision step. */
export type LwirDecisionResult = { readonly chosen: string };

export type LwirFanInConfig = {
  readonly order: "input" | "itemKey";
  readonly output: "array";
  /** Body step whose last output becomes the entry output; default: last committed non-decision step. */
  readonly outputStep?: string;
};

export type LwirParallelConfig = {
  /** Whole-string template resolving to an array. */
  readonly items: string;
  /** Whole-string template over `item`. */
  readonly itemKey: string;
  readonly cardinality: { readonly kind: "matches_items" };
  /** Integer 1..100. */
  readonly maxBranches: number;
  /** Integer 1..maxBranches. */
  readonly maxConcurrency: number;
  readonly failureMode: "fail_fast" | "all_settled";
  readonly fanIn: LwirFanInConfig;
};

export type LwirParallelStep = LwirStepCommon & {
  readonly uses: "parallel";
  readonly with: LwirParallelConfig;
  /** The branch body: its own list of steps (no nested parallel). */
  readonly steps: readonly LwirBodyStep[];
  /** Always `mode: "array"`, items describing the fan-in envelope. */
  readonly output: LwirOutputMode;
  readonly onFailure?: LwirOnFailure;
};

/** A step that may appear inside a parallel body. */
export type LwirBodyStep = LwirAiGenerateStep | LwirToolCallStep | LwirCodeRunStep | LwirDecisionStep;

/** Any LWIR step, discriminated by `uses`. */
export type LwirStep = LwirBodyStep | LwirParallelStep;

/** One fan-in entry of a parallel step's array output. */
export type LwirFanInEntry =
  | {
      readonly itemKey: string;
      readonly status: "completed";
      readonly output: unknown;
      readonly outputRef: string;
      readonly artifacts: readonly unknown[];
    }
  | {
      readonly itemKey: string;
      readonly status: "failed";
      readonly error: unknown;
      readonly artifacts: readonly unknown[];
    };

export type LwirDocument = {
  readonly apiVersion: typeof LWIR_API_VERSION;
  readonly kind: typeof LWIR_KIND;
  readonly metadata: LwirMetadata;
  readonly input: LwirSchemaSection;
  readonly output: LwirSchemaSection;
  readonly permissions?: LwirPermissions;
  readonly steps: readonly LwirStep[];
};

/** One broken rule (lwir.md §8). `path` is JSONPath-like from `$`. */
/**
 * One broken rule. `code` is one of `LWIR_FINDING_CODES` for `validateLwir`'s findings; passes
 * built on top (the compiler's binding pass: `BINDING_FINDING_CODES`) name their own union.
 */
export type LwirFinding<Code extends string = string> = {
  readonly severity: "error";
  readonly code: Code;
  readonly path: string;
  readonly message: string;
};

export type ValidationResult =
  | { readonly valid: true; readonly findings: readonly [] }
  | { readonly valid: false; readonly findings: readonly LwirFinding<LwirFindingCode>[] };
