// The worker's mail dispatcher: claims due messages of the email outbox, renders each with the
// template of its kind (kinds.ts), sends it over SMTP (SMTP_URL) and records the outcome; a mail server that
// is down or refuses for now is retried with backoff for EMAIL_RETRY_WINDOW_MS, so none is lost.
import { and, eq, sql } from 'drizzle-orm';
import { createTransport, type Transporter } from 'nodemailer';
import type { Database } from '../db/client.ts';
import { emailOutbox } from '../db/schema.ts';
import { backoffDelayMs } from '../loops/backoff.ts';
import { startWakeableLoop, type WakeableLoop } from '../loops/wakeable-loop.ts';
import { MAIL_KINDS } from './kinds.ts';
import { ERASED_MAIL_ERROR } from './outbox.ts';
import type { OutboxMessage } from './template.ts';

/** What the dispatcher needs. */
export interface MailDispatcherOptions {
  db: Database;
  /** smtp(s)://user:pass@host:port; null: nothing can be sent (each receipt is marked failed). */
  smtpUrl: string | null;
  /** The sender, e.g. `Storefront <receipts@example.com>`. */
  from: string;
  chainId: number;
  /** The web app's public origin, for links in mails (review forms); null: none. */
  publicUrl?: string | null;
  /** First retry delay (doubles each time, at most an hour). */
  retryBaseMs: number;
  intervalMs?: number;
  log?: (line: string) => void;
}

/** Longest wait between two attempts of one message. */
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** SMTP timeouts: connecting, the greeting, and silence on the socket. */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };
/** Why receipts are not sent when the worker has no SMTP_URL. */
export const NO_MAIL_SERVER = 'no mail server is configured (SMTP_URL is unset)';

/** SMTP_URL with the timeouts added as its query options, unless it sets its own. */
export function smtpUrlWithTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [name, ms] of Object.entries(SMTP_TIMEOUTS))
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  return url.toString();
}
/**
 * A claimed message is leased this long, well past the SMTP timeouts, so a live sender's claim
 * never lapses while it sends; a crashed sender's does.
 */
const LEASE_MS = 5 * 60 * 1000;

interface Due extends OutboxMessage {
  attempts: number;
  retryUntil: Date;
  /** The lease's end as stored: the claim is still this sender's while it is unchanged. */
  leasedUntil: string;
}

/**
 * Claims the next due message (one at a time: each is sent before the next is claimed). Messages
 * past their retry window (a mail server down for days) are given up first.
 */
async function claimNext(db: Database): Promise<Due | undefined> {
  await db.execute(sql`
    update email_outbox set status = 'failed', last_error = 'not sent within the retry window'
    where status = 'pending' and retry_until <= now()`);
  const rows = await db.execute<{
    id: string;
    kind: string;
    order_id: string | null;
    user_id: string | null;
    to_address: string;
    payload: Record<string, unknown> | null;
    attempts: number;
    retry_until: string;
    leased_until: string;
  }>(sql`
    update email_outbox set next_attempt_at = now() + ${`${LEASE_MS} milliseconds`}::interval
    where id = (
      select id from email_outbox where status = 'pending' and next_attempt_at <= now()
      order by next_attempt_at limit 1 for update skip locked)
    returning id, kind, order_id, user_id, to_address, payload, attempts, retry_until,
      next_attempt_at::text as leased_until`);
  const row = [...rows][0];
  return row
    ? {
        id: row.id,
        kind: row.kind,
        orderId: row.order_id,
        userId: row.user_id,
        toAddress: row.to_address,
        payload: row.payload,
        attempts: row.attempts,
        retryUntil: new Date(row.retry_until),
        leasedUntil: row.leased_until,
      }
    : undefined;
}

/** Whether an SMTP error is worth retrying: connection trouble and 4xx replies are; 5xx are not. */
function retryable(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return !(typeof code === 'number' && code >= 500);
}

async function sendOne(
  options: MailDispatcherOptions,
  transport: Transporter,
  due: Due,
): Promise<void> {
  const { db } = options;
  const now = new Date();
  const attempts = due.attempts + 1;
  // Note: only while the claim is still this sender's (its lease unchanged and still pending).
  const settle = (values: Partial<typeof emailOutbox.$inferInsert>) =>
    db
      .update(emailOutbox)
      .set({ attempts, ...values })
      .where(
        and(
          eq(emailOutbox.id, due.id),
          eq(emailOutbox.status, 'pending'),
          sql`${emailOutbox.nextAttemptAt}::text = ${due.leasedUntil}`,
        ),
      );
  // Note: an address erased with its customer's data is mailed nothing.
  if (!due.toAddress) {
    await settle({ status: 'failed', lastError: ERASED_MAIL_ERROR });
    return;
  }
  const render = MAIL_KINDS[due.kind];
  if (!render) {
    await settle({ status: 'failed', lastError: `no template for mail of kind ${due.kind}` });
    return;
  }
  const message = await render(db, due, options.chainId, options.publicUrl ?? null);
  if (!message) {
    await settle({ status: 'failed', lastError: 'what the mail is about no longer exists' });
    return;
  }
  try {
    const info = await transport.sendMail({
      from: options.from,
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.attachments ? { attachments: message.attachments } : {}),
    });
    // Note: a payload may hold a single-use link; it is not kept once the mail is out.
    await settle({
      status: 'sent',
      sentAt: new Date(),
      messageId: info.messageId,
      lastError: null,
      payload: null,
    });
  } catch (error) {
    const next = new Date(
      now.getTime() + backoffDelayMs(attempts, options.retryBaseMs, MAX_RETRY_DELAY_MS),
    );
    const again = retryable(error) && next.getTime() <= due.retryUntil.getTime();
    const reason = error instanceof Error ? error.message : String(error);
    await settle({
      status: again ? 'pending' : 'failed',
      nextAttemptAt: next,
      lastError: reason.slice(0, 500),
    });
  }
}

/**
 * Starts the mail dispatcher (a pass every second by default, or when woken); without a mail
 * server it does nothing and receipts wait (and are given up after their retry window).
 */
export function startMailDispatcher(options: MailDispatcherOptions): WakeableLoop {
  const log = options.log ?? console.log;
  const { smtpUrl } = options;
  if (!smtpUrl) {
    log(`mail: ${NO_MAIL_SERVER}; receipts are not sent`);
    return { wake: () => {}, stop: async () => {} };
  }
  const transport = createTransport(smtpUrlWithTimeouts(smtpUrl));
  const loop = startWakeableLoop(
    'mail dispatch',
    options.intervalMs ?? 1000,
    async () => {
      const due = await claimNext(options.db);
      if (!due) return false;
      await sendOne(options, transport, due).catch((error) =>
        log(`mail ${due.id}: ${String(error)}`),
      );
      return true;
    },
    log,
  );
  return {
    wake: loop.wake,
    stop: async () => {
      await loop.stop();
      transport.close();
    },
  };
}
