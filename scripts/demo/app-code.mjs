// The app code the demo seed runs instead of keeping copies of it: load-app-code.mjs bundles this entry
// (TypeScript sources included) into plain JS. Not meant to be imported directly.

export { hashPasswordWithSalt } from "../../src/lib/password";
