// The provider's whole wire as a gateway needs it (core-types `Protocol`); converters need none of it.

export { nativeCachePlan, planGemini, readCreatedCache } from "./native-cache-plan.js";
export { nativeProtocol } from "./native-protocol.js";
export { nativeTokenCount } from "./native-token-count.js";
