// The shape of an email template of the outbox: what the templates (kinds.ts and the modules it
// gathers) and the dispatcher share, kept apart so the templates need not import the list of kinds.
import type { Database } from '../db/client.ts';
import type { RenderedEmail } from './receipt.ts';

/** A claimed message of the outbox, as its template sees it. */
export interface OutboxMessage {
  id: string;
  kind: string;
  orderId: string | null;
  userId: string | null;
  toAddress: string;
  payload: Record<string, unknown> | null;
}

/** Renders one message; null: what it is about no longer exists (the message is given up). */
export type MailTemplate = (
  db: Database,
  message: OutboxMessage,
  chainId: number,
  publicUrl?: string | null,
) => Promise<RenderedEmail | null>;
