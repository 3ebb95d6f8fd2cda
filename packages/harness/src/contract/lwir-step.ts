/**
 * The LWIR step shape the harness contract needs. @little-stack/lwir owns the full type; until its
 * types land this minimal structural stand-in keeps the contract compilable, and it is replaced by
 * a re-export once `LwirStep` is exported there.
 */
export type LwirStepUses = "ai.generate" | "tool.call" | "code.run" | "decision" | "parallel";

export type LwirStep = {
  readonly id: string;
  readonly uses: LwirStepUses;
  readonly needs?: readonly string[];
  readonly with?: Readonly<Record<string, unknown>>;
  readonly input?: unknown;
  readonly output?: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
};
