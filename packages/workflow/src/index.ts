// Public surface of @little-stack/workflow: an explicit list of named exports.
export const packageName = "@little-stack/workflow";
