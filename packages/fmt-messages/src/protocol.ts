// The provider's whole wire as a gateway needs it (core-types `Protocol`); converters need none of it.

export { messagesCachePlan, planAnthropic } from "./messages-cache-plan.js";
export { DEFAULT_ANTHROPIC_VERSION, messagesProtocol } from "./messages-protocol.js";
export { messagesTokenCount } from "./messages-token-count.js";
