export { createProviderSimApp } from "./app.ts";
export { keyFingerprint } from "./core/hash.ts";
export type { RecordedRequest } from "./core/record.ts";
export { countTokens, MEDIA_PART_TOKENS } from "./core/tokens.ts";
export { DEFAULT_FIXTURES_DIR, type Protocol, type ProviderSimOptions } from "./options.ts";
export { type ProviderSim, type StartOptions, startProviderSim } from "./server.ts";
