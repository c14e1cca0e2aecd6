// Internals other @interlingua packages and the gateway share: helpers and constants below the
// documented surface. Not covered by semver: any minor release may change or remove them.
export { carryThinkingSignatures, restoreCarriedThinking } from "./carried-thinking.js";
export { bookkeepingKey, type NativeBookkeeping } from "./native-extras.js";
export { createdFromCreateTime } from "./parse-native-response.js";
export { MAX_INLINED_REFS } from "./sanitize-native-schema.js";
