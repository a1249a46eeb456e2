// The owner's notices of the changes a stolen session or a leaked API key would make to redirect
// sales (a store created, a slug changed, a store deactivated, a payout address changed, a new API
// key, an API key revoked, a store's webhook signing secret rotated), and the notice to the owner of an email address that someone tried to sign up (or add to
// another account) with. Each is queued in the transaction of its change, to the account's verified
// address (none without one), and rendered from its payload: what changed, when, and what to do
// if it was not them.
import { escapeHtml as e } from '@store/shared';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { emailOutbox, users } from '../db/schema.ts';
import { accountMailPage } from './account.ts';
import { EMAIL_RETRY_WINDOW_MS } from './outbox.ts';
import type { RenderedEmail } from './receipt.ts';
import type { MailTemplate, OutboxMessage } from './template.ts';

/** One notice: its kind (the outbox row's kind) and what its mail tells. */
export type AccountNotice =
  | { kind: 'store_created'; storeName: string; slug: string; paymentAddress: string | null }
  | { kind: 'store_slug_changed'; storeName: string; from: string; to: string }
  | { kind: 'store_deactivated'; storeName: string; slug: string }
  | {
      kind: 'payout_changed';
      storeName: string;
      slug: string;
      from: string | null;
      to: string | null;
    }
  | { kind: 'api_key_created'; keyName: string; keyPrefix: string }
  | { kind: 'api_key_revoked'; keyName: string; keyPrefix: string }
  | { kind: 'webhook_secret_rotated'; storeName: string; slug: string }
  | {
      kind: 'webhook_paused';
      url: string;
      failures: number;
      /** ISO time of the first failure of the run. */
      failingSince: string;
      lastError: string;
    }
  | { kind: 'password_changed'; username: string; byReset: boolean }
  | { kind: 'two_step_changed'; username: string; enabled: boolean }
  | { kind: 'email_changed'; username: string; from: string; to: string }
  | { kind: 'email_in_use'; username: string };

/** The kinds of notice. */
export type AccountNoticeKind = AccountNotice['kind'];

/** Where a notice's links point: the web app's origin (null: the worker's PUBLIC_URL, if any). */
export interface NoticeContext {
  origin: string | null;
  at?: Date;
}

/**
 * Queues a notice of the account's change to its verified email (nothing when it has none: the
 * change itself goes ahead). Note: in the change's own transaction, so a notice exists if and
 * only if the change was made.
 */
export async function enqueueAccountNotice(
  tx: Executor,
  userId: string,
  notice: Exclude<AccountNotice, { kind: 'email_in_use' }>,
  context: NoticeContext,
): Promise<void> {
  const [owner] = await tx
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.email), isNotNull(users.emailVerifiedAt)))
    .limit(1);
  if (owner?.email) await insertNotice(tx, userId, owner.email, notice, context);
}

/**
 * Tells the owner of `email` (the account `holder` that verified it) that someone tried to use it
 * for another account, in place of the answer that would tell that someone the address is taken.
 */
export async function enqueueEmailInUse(
  tx: Executor,
  holder: { id: string; username: string },
  email: string,
  context: NoticeContext,
): Promise<void> {
  await insertNotice(
    tx,
    holder.id,
    email,
    { kind: 'email_in_use', username: holder.username },
    context,
  );
}

async function insertNotice(
  tx: Executor,
  userId: string,
  to: string,
  notice: AccountNotice,
  context: NoticeContext,
): Promise<void> {
  const at = context.at ?? new Date();
  const { kind, ...fields } = notice;
  await tx.insert(emailOutbox).values({
    userId,
    kind,
    toAddress: to,
    payload: { ...fields, origin: context.origin, at: at.toISOString() },
    nextAttemptAt: at,
    retryUntil: new Date(at.getTime() + EMAIL_RETRY_WINDOW_MS),
    createdAt: at,
  });
}

/** What a notice says: its subject, its lines, and whether it ends with "if this was not you". */
interface NoticeText {
  subject: string;
  lines: string[];
  unexpected: string[];
}

const quoted = (text: string) => `“${text}”`;
const address = (value: unknown) => (typeof value === 'string' && value ? value : 'none');

/** "If this was not you" for a change made with the account. */
function ifNotYou(origin: string | null): string[] {
  const reset = origin ? `${origin}/forgot-password` : 'the sign-in page (Forgot password?)';
  return [
    'If this was you, there is nothing to do.',
    `If it was not, someone has your password, a session or an API key: reset your password at ${reset} (every session is signed out, and you can revoke all your API keys), check your stores, and turn on two-step verification on your account page.`,
  ];
}

const TEXTS: Record<
  AccountNoticeKind,
  (p: Record<string, unknown>, origin: string | null) => NoticeText
> = {
  store_created: (p, origin) => ({
    subject: `New store ${quoted(String(p.storeName))} on your account`,
    lines: [
      `A store was created on your Storefront account: ${quoted(String(p.storeName))} at /store/${String(p.slug)}.`,
      `Its payout address (where its sales are paid): ${address(p.paymentAddress)}.`,
    ],
    unexpected: ifNotYou(origin),
  }),
  store_slug_changed: (p, origin) => ({
    subject: `Your store ${quoted(String(p.storeName))} moved to /store/${String(p.to)}`,
    lines: [
      `The address of your store ${quoted(String(p.storeName))} changed from /store/${String(p.from)} to /store/${String(p.to)}.`,
      `/store/${String(p.from)} stays reserved for your account: no one else can open a store there.`,
    ],
    unexpected: ifNotYou(origin),
  }),
  store_deactivated: (p, origin) => ({
    subject: `Your store ${quoted(String(p.storeName))} was deactivated`,
    lines: [
      `Your store ${quoted(String(p.storeName))} (/store/${String(p.slug)}) was deactivated: shoppers no longer see it.`,
    ],
    unexpected: ifNotYou(origin),
  }),
  payout_changed: (p, origin) => ({
    subject: `The payout address of ${quoted(String(p.storeName))} changed`,
    lines: [
      `The payout address of your store ${quoted(String(p.storeName))} (/store/${String(p.slug)}) changed.`,
      `From: ${address(p.from)}`,
      `To: ${address(p.to)}`,
      'The store’s new sales are paid to the new address.',
    ],
    unexpected: ifNotYou(origin),
  }),
  api_key_created: (p, origin) => ({
    subject: `New API key ${quoted(String(p.keyName))} on your account`,
    lines: [
      `An API key was created on your Storefront account: ${quoted(String(p.keyName))} (${String(p.keyPrefix)}…).`,
      'It can create checkout sessions and read your orders until it is revoked (Admin → API keys).',
    ],
    unexpected: ifNotYou(origin),
  }),
  api_key_revoked: (p, origin) => ({
    subject: `API key ${quoted(String(p.keyName))} revoked on your account`,
    lines: [
      `An API key was revoked on your Storefront account: ${quoted(String(p.keyName))} (${String(p.keyPrefix)}…).`,
      'Servers that used it are refused from now on; give them a new key (Admin → API keys).',
    ],
    unexpected: ifNotYou(origin),
  }),
  webhook_secret_rotated: (p, origin) => ({
    subject: `The webhook signing secret of ${quoted(String(p.storeName))} was rotated`,
    lines: [
      `A new signing secret was made for the webhooks of your store ${quoted(String(p.storeName))} (/store/${String(p.slug)}).`,
      'The previous secret keeps signing beside the new one for a day: give your server the new one (Admin → your store → Webhooks) before then.',
    ],
    unexpected: ifNotYou(origin),
  }),
  password_changed: (p, origin) => ({
    subject: 'Your Storefront password was changed',
    lines: [
      p.byReset === true
        ? `The password of your account ${String(p.username)} was reset with a link sent to this address. Every session was signed out.`
        : `The password of your account ${String(p.username)} was changed. Your other sessions were signed out.`,
    ],
    unexpected: ifNotYou(origin),
  }),
  two_step_changed: (p, origin) => ({
    subject:
      p.enabled === true
        ? 'Two-step verification is on for your Storefront account'
        : 'Two-step verification was turned off for your Storefront account',
    lines: [
      p.enabled === true
        ? `Two-step verification was turned on for your account ${String(p.username)}: signing in, moving a store or changing a payout address now also needs a code from your authenticator app (or a recovery code).`
        : `Two-step verification was turned off for your account ${String(p.username)}: signing in now needs only the password.`,
    ],
    unexpected: ifNotYou(origin),
  }),
  email_changed: (p, origin) => ({
    subject: 'The email address of your Storefront account changed',
    lines: [
      `The email address of your account ${String(p.username)} changed from ${String(p.from)} to ${String(p.to)}.`,
      'Receipts of your sales, notices and password resets now go to the new address; this is the last mail to this one.',
    ],
    unexpected: ifNotYou(origin),
  }),
  webhook_paused: (p, origin) => ({
    subject: `Webhooks to ${String(p.url)} are failing: sending is paused`,
    lines: [
      `Your webhook URL ${String(p.url)} has failed every attempt since ${p.failingSince ? new Date(String(p.failingSince)).toUTCString() : 'a while'}: ${String(p.failures)} times in a row (last: ${String(p.lastError)}).`,
      'Sending to it is paused. Nothing is lost: its pending webhooks wait, and we try one again every so often; as soon as it answers, the rest go out by themselves.',
    ],
    unexpected: [
      origin
        ? `Check that your server answers 2xx, then see each delivery in Admin → your store → Webhooks (${origin}/admin).`
        : 'Check that your server answers 2xx, then see each delivery in Admin → your store → Webhooks.',
    ],
  }),
  email_in_use: (p, origin) => ({
    subject: 'Someone tried to use your email address',
    lines: [
      `Someone tried to use this email address for another Storefront account. It already belongs to your account, ${String(p.username)}, and stays with it: nothing changed.`,
    ],
    unexpected: [
      origin
        ? `If it was you, sign in at ${origin}/sign-in, or choose a new password at ${origin}/forgot-password.`
        : 'If it was you, sign in with that account, or choose a new password from the sign-in page.',
      'If it was not, ignore this email.',
    ],
  }),
};

/** Renders a notice of `kind` from its payload, to `to`. */
export function renderNotice(
  kind: AccountNoticeKind,
  to: string,
  payload: Record<string, unknown>,
  publicUrl: string | null,
): RenderedEmail {
  const origin = typeof payload.origin === 'string' ? payload.origin : publicUrl;
  const text = TEXTS[kind](payload, origin);
  const when =
    typeof payload.at === 'string' ? `${payload.at.replace('T', ' ').slice(0, 19)} UTC` : null;
  const all = [...text.lines, ...(when ? [`When: ${when}`] : [])];
  return {
    to,
    replyTo: undefined,
    subject: text.subject,
    text: [...all, '', ...text.unexpected].join('\n'),
    html: accountMailPage(
      text.subject,
      `${all.map((line) => `<p style="margin:0 0 8px">${e(line)}</p>`).join('')}${text.unexpected
        .map((line) => `<p style="margin:12px 0 0;font-size:13px;color:#52525b">${e(line)}</p>`)
        .join('')}`,
    ),
  };
}

const template =
  (kind: AccountNoticeKind): MailTemplate =>
  async (_db, message: OutboxMessage, _chainId, publicUrl) =>
    message.payload
      ? renderNotice(kind, message.toAddress, message.payload, publicUrl ?? null)
      : null;

/** The notices' templates, by kind (registered in kinds.ts). */
export const NOTICE_MAIL_KINDS: Record<AccountNoticeKind, MailTemplate> = {
  store_created: template('store_created'),
  store_slug_changed: template('store_slug_changed'),
  store_deactivated: template('store_deactivated'),
  payout_changed: template('payout_changed'),
  api_key_created: template('api_key_created'),
  api_key_revoked: template('api_key_revoked'),
  webhook_secret_rotated: template('webhook_secret_rotated'),
  webhook_paused: template('webhook_paused'),
  password_changed: template('password_changed'),
  two_step_changed: template('two_step_changed'),
  email_changed: template('email_changed'),
  email_in_use: template('email_in_use'),
};
