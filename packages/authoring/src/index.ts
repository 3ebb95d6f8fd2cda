// Public surface of @little-stack/authoring: an explicit list of named exports.
export const packageName = "@little-stack/authoring";
