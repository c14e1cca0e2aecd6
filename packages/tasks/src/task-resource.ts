import * as z from "zod/mini";
import { isTerminal, type TaskStatus, taskStatusSchema } from "./task-status.js";

/**
 * One entry of `result.images`, `result.videos` or `result.audios`. The API reference shows only the images
 * entry; videos and audios mirror it (our choice, stated in the README).
 */
export interface MediaResult {
  url: string[];
  expires_at: number;
}

export interface TaskResult {
  images?: MediaResult[];
  videos?: MediaResult[];
  audios?: MediaResult[];
}

/** `param` appears only in webhook bodies: a string, "" when no field is to blame (null is read). */
export interface TaskError {
  code: number | string;
  message: string;
  type: string;
  param?: string | null;
}

/** The Task resource as the API reference's table has it: `data` of GET /v1/tasks/{id} and the webhook body. */
export interface TaskResource {
  id: string;
  status: TaskStatus;
  cost: number;
  credits_cost: number;
  progress: number;
  result?: TaskResult;
  created: number;
  completed?: number;
  estimated_time: number;
  actual_time?: number;
  error?: TaskError;
}

const unixSeconds = z.int().check(z.nonnegative());

export const mediaResultSchema = z.strictObject({
  url: z.array(z.string()),
  expires_at: unixSeconds,
});

export const taskResultSchema = z.strictObject({
  images: z.exactOptional(z.array(mediaResultSchema)),
  videos: z.exactOptional(z.array(mediaResultSchema)),
  audios: z.exactOptional(z.array(mediaResultSchema)),
});

export const taskErrorSchema = z.strictObject({
  code: z.union([z.int(), z.string()]),
  message: z.string(),
  type: z.string().check(z.minLength(1)),
  param: z.exactOptional(z.nullable(z.string())),
});

const taskObjectSchema = z.strictObject({
  id: z.string().check(z.minLength(1)),
  status: taskStatusSchema,
  cost: z.number().check(z.nonnegative()),
  credits_cost: z.number().check(z.nonnegative()),
  progress: z.int().check(z.gte(0)).check(z.lte(100)),
  result: z.exactOptional(taskResultSchema),
  created: unixSeconds,
  completed: z.exactOptional(unixSeconds),
  estimated_time: z.int().check(z.nonnegative()),
  actual_time: z.exactOptional(z.int().check(z.nonnegative())),
  error: z.exactOptional(taskErrorSchema),
});

/** The state-tied fields of the API reference's "States and transitions", one row each. */
const STATE_TIED: readonly {
  field: "result" | "error" | "completed" | "actual_time";
  when: (s: TaskStatus) => boolean;
  rule: string;
}[] = [
  { field: "result", when: (s) => s === "completed", rule: "only when completed" },
  { field: "error", when: (s) => s === "failed", rule: "only when failed" },
  { field: "completed", when: isTerminal, rule: "only when finished" },
  { field: "actual_time", when: isTerminal, rule: "only when finished" },
];

/**
 * The API reference's Task with the state ties enforced both ways: each tied field is present exactly in the
 * states it names, a completed task is at 100%, and `actual_time = completed - created`.
 */
export const taskResourceSchema: z.ZodMiniType<TaskResource> = taskObjectSchema.check(
  z.superRefine((task, ctx) => {
    for (const { field, when, rule } of STATE_TIED) {
      const present = task[field] !== undefined;
      if (present !== when(task.status)) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: present
            ? `${field} is present ${rule}, not when ${task.status}`
            : `${field} is required when ${task.status}`,
        });
      }
    }
    if (task.status === "completed" && task.progress !== 100) {
      ctx.addIssue({ code: "custom", path: ["progress"], message: "a completed task is at 100" });
    }
    if (task.completed !== undefined && task.completed < task.created) {
      ctx.addIssue({ code: "custom", path: ["completed"], message: "completed before created" });
    }
    if (
      task.completed !== undefined &&
      task.actual_time !== undefined &&
      task.actual_time !== task.completed - task.created
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["actual_time"],
        message: "actual_time must equal completed - created",
      });
    }
  }),
) as z.ZodMiniType<TaskResource>;
