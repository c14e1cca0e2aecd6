// The zod schemas of the API reference's Task resource (strict: a body that passes is exactly the API reference's shape),
// with their inferred types. Covered by semver like the main entry.
export {
  type MediaResult,
  mediaResultSchema,
  type TaskError,
  type TaskResource,
  type TaskResult,
  taskErrorSchema,
  taskResourceSchema,
  taskResultSchema,
} from "./task-resource.js";
export { type TaskStatus, taskStatusSchema } from "./task-status.js";
