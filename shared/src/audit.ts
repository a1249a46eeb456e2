// A store's audit log: every change that touches money or access (payout address, slug, closing the
// store, refunds, accepting an underpaid order, API keys, the webhook URL and secret, sign-ins from
// a new device), with who made it (a user, or a user's API key), when, from where (address and
// browser) and what changed (the fields before and after; never a secret). Append-only.
import * as v from 'valibot';
import { cursorParam, pageLimitParam } from './limits.ts';

/** What an audit entry records. */
export const AUDIT_ACTIONS = [
  'store.created',
  'store.payout_address_changed',
  'store.slug_changed',
  'store.deactivated',
  'store.reactivated',
  'order.refund_created',
  'order.refund_sent',
  'order.underpaid_accepted',
  'api_key.created',
  'api_key.revoked',
  'webhook.url_changed',
  'webhook.secret_rotated',
  'account.new_device_sign_in',
  'team.member_invited',
  'team.invitation_revoked',
  'team.invitation_accepted',
  'team.member_role_changed',
  'team.member_removed',
] as const;
/** One audited action. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Each action in words, as the admin's Audit log page shows it. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'store.created': 'Store created',
  'store.payout_address_changed': 'Payout address changed',
  'store.slug_changed': 'Store address (slug) changed',
  'store.deactivated': 'Store deactivated',
  'store.reactivated': 'Store reactivated',
  'order.refund_created': 'Refund started',
  'order.refund_sent': 'Refund transaction noted',
  'order.underpaid_accepted': 'Underpaid order accepted',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'webhook.url_changed': 'Webhook URL changed',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'account.new_device_sign_in': 'Sign-in from a new device',
  'team.member_invited': 'Team member invited',
  'team.invitation_revoked': 'Invitation revoked',
  'team.invitation_accepted': 'Invitation accepted',
  'team.member_role_changed': "Team member's role changed",
  'team.member_removed': 'Team member removed',
};

/** Largest page and the default one; longest cursor. */
export const AUDIT_LIST_LIMITS = { maxPage: 500, defaultPage: 100, cursor: 200 } as const;

const dateMessage = 'Dates are YYYY-MM-DD';
const day = v.pipe(v.string(), v.maxLength(10, dateMessage), v.isoDate(dateMessage));

/**
 * Query of GET /api/stores/{id}/audit (and its CSV): `action`, `actor` (a user's or an API key's
 * id), `from` and `to` (days, UTC, both included), a page size and the previous page's
 * `X-Next-Cursor`.
 */
export const AuditQuerySchema = v.object({
  action: v.optional(v.picklist(AUDIT_ACTIONS, 'action is not an audited action')),
  actor: v.optional(
    v.pipe(v.string(), v.maxLength(36, 'actor is an id'), v.uuid('actor is an id')),
  ),
  from: v.optional(day),
  to: v.optional(day),
  cursor: cursorParam(AUDIT_LIST_LIMITS.cursor),
  limit: pageLimitParam(AUDIT_LIST_LIMITS.maxPage),
});
/** A validated audit query. */
export type AuditQuery = v.InferOutput<typeof AuditQuerySchema>;

/** A changed field: its value before and after (null: none). */
const FieldChangeSchema = v.object({
  before: v.nullable(v.union([v.string(), v.number(), v.boolean()])),
  after: v.nullable(v.union([v.string(), v.number(), v.boolean()])),
});

/** One audit entry. */
export const AuditEntrySchema = v.object({
  id: v.string(),
  at: v.pipe(v.string(), v.isoTimestamp()),
  action: v.picklist(AUDIT_ACTIONS),
  /** The store it concerns; null for an account's own entries (keys, sign-ins). */
  storeId: v.nullable(v.string()),
  /** Who: the user (their username then), and the API key when one was used. */
  actor: v.object({
    userId: v.nullable(v.string()),
    username: v.nullable(v.string()),
    apiKeyId: v.nullable(v.string()),
    apiKeyPrefix: v.nullable(v.string()),
  }),
  /** From where: the client's address as the API derives it, and its User-Agent. */
  ip: v.nullable(v.string()),
  userAgent: v.nullable(v.string()),
  /** What it acted on (an order, a key, a device), by id. */
  subjectId: v.nullable(v.string()),
  /** The fields it changed. */
  changes: v.record(v.string(), FieldChangeSchema),
});
/** One audit entry as the API answers it. */
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;

/** Columns of the audit CSV, in order. */
export const AUDIT_CSV_COLUMNS = [
  'at',
  'action',
  'store_id',
  'user_id',
  'username',
  'api_key_id',
  'api_key_prefix',
  'ip',
  'user_agent',
  'subject_id',
  'changes',
] as const;
