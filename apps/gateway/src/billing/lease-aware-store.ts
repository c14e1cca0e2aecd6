import type {
  BatchOutcome,
  ChargeBatch,
  LeaseGrant,
  LeaseKey,
  LeaseKind,
  LeaseReturn,
  LeaseRow,
  LogDay,
  LogFilter,
  LogStats,
  NewToken,
  Page,
  Store,
  TokenPatch,
  TokenRow,
  UsageLogRow,
  UserRow,
} from "../storage/store.ts";

/** What the view needs of this instance's leases. */
export interface LocalLeases {
  /** The free part of this instance's lease on a subject. */
  freeLease(kind: LeaseKind, subject: string): number;
  /** Gives it back to the database now. */
  giveBack(kind: LeaseKind, subject: string): Promise<void>;
}

/**
 * `reserved` leaves out this instance's free lease (neither spent nor held), so balances show only
 * real holds; setting a token's remaining returns that lease first, so the new value is exact.
 */
export class LeaseAwareStore implements Store {
  readonly driver: Store["driver"];
  readonly files: Store["files"];
  readonly tasks: Store["tasks"];
  readonly webhooks: Store["webhooks"];
  readonly responses: Store["responses"];
  readonly #store: Store;
  readonly #leases: LocalLeases;

  constructor(store: Store, leases: LocalLeases) {
    this.#store = store;
    this.#leases = leases;
    this.driver = store.driver;
    this.files = store.files;
    this.tasks = store.tasks;
    this.webhooks = store.webhooks;
    this.responses = store.responses;
  }

  /** The row with this instance's free lease on its subject left out of `reserved`. */
  #seen<R extends { readonly reserved: number }>(kind: LeaseKind, subject: string, row: R): R {
    const free = this.#leases.freeLease(kind, subject);
    return free === 0 ? row : { ...row, reserved: Math.max(0, row.reserved - free) };
  }

  #token = (row: TokenRow): TokenRow => this.#seen("token", String(row.id), row);
  #user = (row: UserRow): UserRow => this.#seen("user", row.id, row);
  #maybeToken = (row: TokenRow | undefined) => (row === undefined ? undefined : this.#token(row));

  migrate(): Promise<number[]> {
    return this.#store.migrate();
  }

  close(): Promise<void> {
    return this.#store.close();
  }

  async upsertUser(user: { id: string; quota: number; unlimited: boolean }): Promise<UserRow> {
    return this.#user(await this.#store.upsertUser(user));
  }

  async getUser(id: string): Promise<UserRow | undefined> {
    const row = await this.#store.getUser(id);
    return row === undefined ? undefined : this.#user(row);
  }

  async upsertToken(token: NewToken): Promise<TokenRow | undefined> {
    return this.#maybeToken(await this.#store.upsertToken(token));
  }

  async createToken(token: NewToken): Promise<TokenRow> {
    return this.#token(await this.#store.createToken(token));
  }

  async findTokenByHash(keyHash: string): Promise<TokenRow | undefined> {
    return this.#maybeToken(await this.#store.findTokenByHash(keyHash));
  }

  async getToken(id: number): Promise<TokenRow | undefined> {
    return this.#maybeToken(await this.#store.getToken(id));
  }

  async listTokens(
    userId: string,
    page: { offset: number; limit: number },
  ): Promise<Page<TokenRow>> {
    const found = await this.#store.listTokens(userId, page);
    return { ...found, items: found.items.map(this.#token) };
  }

  async updateToken(id: number, userId: string, patch: TokenPatch): Promise<TokenRow | undefined> {
    // `remaining` is set against the database's `reserved`: without this instance's free lease
    // in it, the remaining the owner asked for is the remaining they will see and can spend.
    if (patch.remaining !== undefined) await this.#leases.giveBack("token", String(id));
    return this.#maybeToken(await this.#store.updateToken(id, userId, patch));
  }

  async drawTokenQuota(id: number, userId: string, credits: number): Promise<TokenRow | undefined> {
    // Drawn against the database's `reserved`, like `remaining` above: this instance's free
    // lease goes back first, so what the view shows as remaining can all be drawn.
    await this.#leases.giveBack("token", String(id));
    return this.#maybeToken(await this.#store.drawTokenQuota(id, userId, credits));
  }

  deleteToken(id: number, userId: string): Promise<boolean> {
    return this.#store.deleteToken(id, userId);
  }

  takeLease(
    key: LeaseKey,
    sizes: readonly number[],
    now: number,
    exists: boolean,
  ): Promise<LeaseGrant> {
    return this.#store.takeLease(key, sizes, now, exists);
  }

  returnLease(key: LeaseKey, amount: number): Promise<LeaseReturn> {
    return this.#store.returnLease(key, amount);
  }

  heartbeatLeases(owner: string, now: number): Promise<LeaseKey[]> {
    return this.#store.heartbeatLeases(owner, now);
  }

  reclaimLeases(
    which: { readonly before: number } | { readonly owner: string },
  ): Promise<{ leases: number; credits: number }> {
    return this.#store.reclaimLeases(which);
  }

  listLeases(): Promise<LeaseRow[]> {
    return this.#store.listLeases();
  }

  writeCharges(batch: ChargeBatch, now: number): Promise<BatchOutcome> {
    return this.#store.writeCharges(batch, now);
  }

  forgetBatches(before: number): Promise<number> {
    return this.#store.forgetBatches(before);
  }

  listDeadLetters(): ReturnType<Store["listDeadLetters"]> {
    return this.#store.listDeadLetters();
  }

  queryLogs(
    filter: LogFilter,
    page: { offset: number; limit: number },
  ): Promise<Page<UsageLogRow>> {
    return this.#store.queryLogs(filter, page);
  }

  logStats(filter: LogFilter): Promise<LogStats> {
    return this.#store.logStats(filter);
  }

  logDaily(filter: LogFilter): Promise<LogDay[]> {
    if (this.#store.logDaily === undefined) return Promise.resolve([]);
    return this.#store.logDaily(filter);
  }
}
