// Public surface of @little-stack/skills: an explicit list of named exports.
export const packageName = "@little-stack/skills";
