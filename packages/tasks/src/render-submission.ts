/** docs/api-reference.md "Asynchronous task submission acknowledgement". */
export interface SubmissionAck {
  code: 200;
  data: [{ status: "submitted"; task_id: string }];
}

export function renderSubmission(taskId: string): SubmissionAck {
  return { code: 200, data: [{ status: "submitted", task_id: taskId }] };
}
