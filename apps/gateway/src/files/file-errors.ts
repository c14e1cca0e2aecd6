/** A store refused bytes past `PutOptions.maxBytes`; nothing was kept. */
export class FileTooLargeError extends Error {
  readonly limit: number;

  constructor(limit: number) {
    super(`file is larger than ${limit} bytes`);
    this.name = "FileTooLargeError";
    this.limit = limit;
  }
}
