/** A non-fatal finding while assembling a session's skill set. */
export type SkillWarning = {
  readonly code: "skills.org_overridden" | "skills.org_skill_invalid" | "skills.org_duplicate_name";
  readonly message: string;
  readonly skillName?: string;
  readonly path?: string;
};

/** Optional sink for warnings (they are also always returned). */
export type SkillLogger = {
  warn(message: string, details: SkillWarning): void;
};
