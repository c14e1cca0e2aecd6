// OpenAI's media endpoints (images, speech, transcriptions): wire schemas and conversions, at the
// explicit subpath `@interlingua/fmt-chat/media` so the chat codec's entry stays narrow.
export * from "./media/openai-images.js";
export * from "./media/openai-speech.js";
export * from "./media/openai-transcription.js";
export * from "./media/speech-audio-bytes.js";
