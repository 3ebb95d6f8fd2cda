import { fileURLToPath } from "node:url";
import { skill, type SkillReference } from "@little-stack/skills";

/**
 * Skills the SDK ships for the planner: the LWIR reference (`skills/lwir/` in this package),
 * staged at `.agents/skills/lwir/` in every planner session. The same relative path holds from
 * `src/workflow-harness/` and `dist/workflow-harness/`. A workflow or org skill named `lwir`
 * replaces it.
 */
export const builtinPlannerSkills: readonly SkillReference[] = [skill(fileURLToPath(new URL("../../skills/lwir", import.meta.url)))];
