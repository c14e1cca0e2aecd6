import { randomInt } from "node:crypto";

// Task ids are what a caller polls, remixes and receives in webhooks: unguessable (24 base62
// characters, about 143 bits from the CSPRNG) and checkable by shape before any database read.

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LENGTH = 24;
const TASK_ID = /^task_[0-9A-Za-z]{24}$/;

const randomBase62 = (length: number): string => {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
};

export const newTaskId = (): string => `task_${randomBase62(LENGTH)}`;

/** The id of a webhook push (the Standard Webhooks `webhook-id` receivers deduplicate on). */
export const newDeliveryId = (): string => `msg_${randomBase62(LENGTH)}`;

export const isTaskId = (value: string): boolean => TASK_ID.test(value);
