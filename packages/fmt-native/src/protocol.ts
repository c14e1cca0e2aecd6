// The provider's whole wire as a gateway needs it (core-types `Protocol`); converters need none of it.
export { nativeProtocol } from "./native-protocol.js";
