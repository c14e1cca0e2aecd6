// The provider's whole wire as a gateway needs it (core-types `Protocol`); converters need none of it.

export { chatCachePlan, planOpenAI } from "./chat-cache-plan.js";
export { chatProtocol } from "./chat-protocol.js";
