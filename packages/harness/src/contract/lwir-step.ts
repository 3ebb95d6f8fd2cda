/** The LWIR step types the harness contract names, from @little-stack/lwir (the owner). */
export type { LwirStep, LwirStepType as LwirStepUses } from "@little-stack/lwir";
