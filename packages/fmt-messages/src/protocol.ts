// The provider's whole wire as a gateway needs it (core-types `Protocol`); converters need none of it.
export { DEFAULT_ANTHROPIC_VERSION, messagesProtocol } from "./messages-protocol.js";
