// Veo long-running operations and Gemini image output on the Gemini protocol, at the explicit
// subpath `@interlingua/fmt-native/veo`.
export {};
