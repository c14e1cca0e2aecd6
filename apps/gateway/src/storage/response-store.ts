import type { StoredItem } from "@interlingua/fmt-responses";

// Responses kept for `store: true` (issue 25, migration 8). A response is written when its call
// starts (`in_progress`, with its input items), so a follow-up naming it finds it even while its
// stream is still being recorded, and finished once (a compare-and-swap on the status: a
// response cancelled in the meantime stays cancelled). Every read is scoped to the user.

/** A stored item, and the upstream protocol that made it (undefined: the client sent it). */
export interface StoredEntry {
  readonly item: StoredItem;
  readonly origin: string | undefined;
}

/** OpenAI's Response.status values. */
export type StoredStatus =
  | "queued"
  | "in_progress"
  | "completed"
  | "incomplete"
  | "failed"
  | "cancelled";

/** Statuses a response still leaves: `finish` and `cancel` act only from these. */
export const OPEN_STATUSES: readonly StoredStatus[] = ["queued", "in_progress"];

export interface StoredResponseRow {
  readonly id: string;
  readonly userId: string;
  readonly previousId: string | undefined;
  readonly status: StoredStatus;
  /** The Responses object as last known (OpenAI's shape), parsed. */
  readonly body: Record<string, unknown>;
  readonly bytes: number;
  /** Created with `background: true`: run by the background runner, cancellable. */
  readonly background: boolean;
  /** Created with `background: true` and `stream: true`: its stream events are kept. */
  readonly streamed: boolean;
  /** What its recorded stream said it dropped (`x-interlingua-warnings` entries), if anything. */
  readonly streamWarnings: string | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number;
}

export interface NewStoredResponse {
  readonly id: string;
  readonly userId: string;
  readonly previousId: string | undefined;
  readonly status: StoredStatus;
  readonly body: Record<string, unknown>;
  /** The whole conversation the response answers, in order: history, then the new input. */
  readonly inputItems: readonly StoredEntry[];
  /** A background response: the request its runner replays (JSON). */
  readonly backgroundRequest?: unknown;
  /** A background response created with `stream: true`. */
  readonly streamed?: boolean;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface StoredResponseEnd {
  readonly status: StoredStatus;
  readonly body: Record<string, unknown>;
  readonly outputItems: readonly StoredItem[];
  /** The upstream protocol that made the output. */
  readonly origin?: string | undefined;
}

/** One Responses stream event of a background response, as its client got it. */
export interface StoredEvent {
  /** Its `sequence_number`. */
  readonly seq: number;
  /** The event's JSON. */
  readonly data: string;
}

export interface ResponseStore {
  /** A user's unexpired responses, newest first, and how many (the `/api/response/self` listing). */
  listByUser?(
    userId: string,
    now: number,
    page: { offset: number; limit: number },
  ): Promise<{ items: StoredResponseRow[]; total: number }>;
  /** Writes the response and its input items in one transaction. */
  begin(response: NewStoredResponse, now: number): Promise<void>;
  /**
   * Sets the final body and writes the output items, only while the response is still open
   * (queued or in progress); false when it was not (cancelled, deleted, expired).
   */
  finish(id: string, end: StoredResponseEnd, now: number): Promise<boolean>;
  /** Moves an open response to `status` with `body`; false when it was not open. */
  transition(
    id: string,
    userId: string,
    from: readonly StoredStatus[],
    status: StoredStatus,
    body: Record<string, unknown>,
    now: number,
  ): Promise<boolean>;
  /**
   * Takes a background response to run: queued, or in progress under a claim that lapsed (its
   * runner died). It becomes in progress with `body`, claimed until `until`; undefined when it
   * was not takeable (finished, cancelled, or another runner holds it).
   */
  claim(
    id: string,
    now: number,
    until: number,
    body: (row: StoredResponseRow) => Record<string, unknown>,
  ): Promise<{ row: StoredResponseRow; request: unknown } | undefined>;
  /**
   * Extends the claim a runner holds (`from`, as it took or last extended it) to `until`, while
   * the response is in progress under that claim; false when it is not (finished, cancelled,
   * deleted, or taken over after the claim lapsed).
   */
  renewClaim(id: string, from: number, until: number, now: number): Promise<boolean>;
  /** Whether the response is still in progress under the claim `until` (a read; see renewClaim). */
  holdsClaim(id: string, until: number): Promise<boolean>;
  /** Open background responses (id and when their claim lapses, 0 if queued), oldest first. */
  openBackground(limit: number): Promise<{ id: string; claimedUntil: number }[]>;
  /** The user's response, unless it expired. */
  get(id: string, userId: string, now: number): Promise<StoredResponseRow | undefined>;
  /** Its items in order: the input items, then (`output`) the output items. */
  items(id: string, output: boolean): Promise<StoredEntry[]>;
  /** Items of the user's live responses by item id (any copy: they are the same item). */
  findItems(
    userId: string,
    itemIds: readonly string[],
    now: number,
  ): Promise<Map<string, StoredEntry>>;
  /** Appends stream events of a response (a background one streamed), in order; none once it is gone. */
  appendEvents(id: string, events: readonly StoredEvent[]): Promise<void>;
  /** Up to `limit` of its stream events after sequence number `after`, in order. */
  events(id: string, after: number, limit: number): Promise<StoredEvent[]>;
  /** Sets what its recorded stream said it dropped (`x-interlingua-warnings` entries). */
  setStreamWarnings(id: string, warnings: string): Promise<void>;
  /** The highest sequence number of its stream events; -1 when there is none. */
  lastEventSeq(id: string): Promise<number>;
  /** Deletes the user's response, its items and its events; false when there was none. */
  delete(id: string, userId: string): Promise<boolean>;
  /** Deletes up to `limit` expired responses with their items and events; how many went. */
  sweep(now: number, limit: number): Promise<number>;
}
