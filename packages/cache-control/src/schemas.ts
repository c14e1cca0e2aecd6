// The zod schema of the body that creates a Gemini context cache, with its type. Covered by
// semver like the main entry.
export {
  type NativeCachedContentCreate,
  nativeCachedContentCreateSchema,
} from "./native-cached-content.js";
