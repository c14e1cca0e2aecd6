import { Webhook } from "standardwebhooks";

// Pushes are signed per the Standard Webhooks specification (the scheme OpenAI's webhooks use):
// `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the
// user's `whsec_…` secret, so a receiver verifies origin with any Standard Webhooks library.

export const WEBHOOK_USER_AGENT = "Interlingua-Webhooks/1.0";

export interface WebhookMessage {
  /** Same on every retry of one push, so receivers can deduplicate on it. */
  readonly id: string;
  /** Unix ms of this attempt (sent as whole seconds). */
  readonly timestampMs: number;
  /** The exact bytes sent: the signature covers them. */
  readonly body: string;
}

/** The request headers of one attempt. They carry the signature: never log them. */
export function signWebhook(secret: string, message: WebhookMessage): Record<string, string> {
  const timestamp = new Date(message.timestampMs);
  return {
    "content-type": "application/json",
    "user-agent": WEBHOOK_USER_AGENT,
    "webhook-id": message.id,
    "webhook-timestamp": String(Math.floor(message.timestampMs / 1000)),
    "webhook-signature": new Webhook(secret).sign(message.id, timestamp, message.body),
  };
}
