// The provider's whole wire as a gateway needs it (core-types `Protocol`); converters need none of it.

export { planOpenAIResponses, responsesCachePlan } from "./responses-cache-plan.js";
export { responsesProtocol, statelessResponses } from "./responses-protocol.js";
export { responsesTokenCount } from "./responses-token-count.js";
export { RESPONSES_TOOL_NAME_RULE } from "./responses-tool-name.js";
