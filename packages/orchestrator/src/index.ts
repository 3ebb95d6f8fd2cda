// Public surface of @little-stack/orchestrator: an explicit list of named exports.
export const packageName = "@little-stack/orchestrator";
