// Stores: public listing and lookup, the merchant's own stores, creation and edits.
import {
  type CreateStore,
  effectiveRole,
  resolveStoreSettings,
  type StorePermission,
  type StoreRole,
} from '@store/shared';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { nextVersion } from '../../db/row-version.ts';
import { products, storeMembers, storeSlugs, stores } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { expectedVersion, staleEdit } from '../../http/versions.ts';
import { enqueueAccountNotice, type NoticeContext } from '../../mail/notices.ts';
import { type AuditActor, type AuditEvent, changed, recordAudit } from '../audit/record.ts';
import { authorizeStore, type Caller, memberStore, membershipOf } from '../team/access.ts';
import {
  type OwnerStore,
  type PublicStore,
  SLUG_TAKEN,
  STORE_NOT_FOUND,
  type UpdateStoreBody,
} from './model.ts';

/** A store row as stored. */
export type StoreRow = typeof stores.$inferSelect;

// Note: "Verified Store" holds only while the address that signed is still the payout address.
const verifiedNow = sql<boolean>`coalesce(lower(${stores.verifiedAddress}) = lower(${stores.paymentAddress}), false)`;

// Note: what anyone may see of a store: no owner id and no payout address.
const publicColumns = {
  id: stores.id,
  name: stores.name,
  slug: stores.slug,
  description: stores.description,
  domain: stores.domain,
  logoUrl: stores.logoUrl,
  theme: stores.theme,
  primaryColor: stores.primaryColor,
  secondaryColor: stores.secondaryColor,
  accentColor: stores.accentColor,
  isActive: stores.isActive,
  createdAt: stores.createdAt,
  updatedAt: stores.updatedAt,
  // The store's settings (null: the defaults, resolved by the shared helpers).
  taxRateBps: stores.taxRateBps,
  shippingOptions: stores.shippingOptions,
  shippingZones: stores.shippingZones,
  pricesIncludeTax: stores.pricesIncludeTax,
  shippingTime: stores.shippingTime,
  returnPolicyDays: stores.returnPolicyDays,
  verified: verifiedNow,
};
// Note: qualified by hand: drizzle leaves columns unqualified in a one-table select, and inside
// the subquery an unqualified "id" would be the product's.
const publishedCount = sql<number>`(select count(*)::int from ${products} where ${products}.store_id = ${stores}.id and ${products}.is_published)`;
const allCount = sql<number>`(select count(*)::int from ${products} where ${products}.store_id = ${stores}.id)`;
const ownerColumns = {
  ...publicColumns,
  ownerId: stores.ownerId,
  paymentAddress: stores.paymentAddress,
  replyToEmail: stores.replyToEmail,
  webhookUrl: stores.webhookUrl,
  verifiedAddress: stores.verifiedAddress,
  verifiedAt: stores.verifiedAt,
  legalName: stores.legalName,
  legalAddress: stores.legalAddress,
  taxId: stores.taxId,
  attachInvoiceToReceipt: stores.attachInvoiceToReceipt,
  customerRetentionMonths: stores.customerRetentionMonths,
  productCount: allCount,
};

/** Active stores with their published product count, oldest first, one page (GET /api/stores). */
export function listActiveStores(
  db: Database,
  page: { limit: number; offset: number },
): Promise<PublicStore[]> {
  return db
    .select({ ...publicColumns, productCount: publishedCount })
    .from(stores)
    .where(eq(stores.isActive, true))
    .orderBy(asc(stores.createdAt), asc(stores.id))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * The stores the caller is a member of (its own and those it was invited to), inactive ones too,
 * with all their products counted and the role it acts with in each.
 */
export async function listOwnStores(db: Database, caller: Caller): Promise<OwnerStore[]> {
  const rows = await db
    .select({
      ...ownerColumns,
      memberRole: storeMembers.role,
      refundLimitUsdc: storeMembers.refundLimitUsdc,
    })
    .from(stores)
    .innerJoin(
      storeMembers,
      and(eq(storeMembers.storeId, stores.id), eq(storeMembers.userId, caller.id)),
    )
    .where(memberStore(caller, sql`${stores.id}`))
    .orderBy(asc(stores.createdAt), asc(stores.id));
  return rows.map(({ memberRole, refundLimitUsdc, ...store }) => ({
    ...store,
    ...standingOf(effectiveRole(memberRole, caller.apiKeyRole), refundLimitUsdc),
  }));
}

const bySlugOrId = (slugOrId: string): SQL =>
  isUuid(slugOrId) ? eq(stores.id, slugOrId) : eq(stores.slug, slugOrId);

/**
 * A store by id (a UUID) or slug: the owner's view for a member of its team (with their role);
 * inactive stores only for them.
 */
export async function getStoreForViewer(
  db: Database,
  slugOrId: string,
  viewer: Caller | undefined,
): Promise<PublicStore | OwnerStore> {
  const [row] = await db
    .select({ ...ownerColumns, publishedCount })
    .from(stores)
    .where(bySlugOrId(slugOrId))
    .limit(1);
  if (!row) throw new AppError('not_found', STORE_NOT_FOUND);
  const {
    publishedCount: published,
    webhookUrl,
    ownerId,
    paymentAddress,
    replyToEmail,
    verifiedAddress,
    verifiedAt,
    legalName,
    legalAddress,
    taxId,
    attachInvoiceToReceipt,
    customerRetentionMonths,
    ...rest
  } = row;
  const membership = viewer ? await membershipOf(db, viewer, row.id) : null;
  if (membership)
    return {
      ...rest,
      ...standingOf(membership.role, membership.refundLimitUsdc),
      ownerId,
      paymentAddress,
      replyToEmail,
      webhookUrl,
      verifiedAddress,
      verifiedAt,
      legalName,
      legalAddress,
      taxId,
      attachInvoiceToReceipt,
      customerRetentionMonths,
    };
  if (!row.isActive) throw new AppError('not_found', STORE_NOT_FOUND);
  return { ...rest, productCount: published };
}

/** Who owns a store and whether it is open, by id or slug; undefined when there is none. */
export async function findStoreRef(
  db: Database,
  slugOrId: string,
): Promise<{ id: string; ownerId: string; isActive: boolean } | undefined> {
  const [store] = await db
    .select({ id: stores.id, ownerId: stores.ownerId, isActive: stores.isActive })
    .from(stores)
    .where(bySlugOrId(slugOrId))
    .limit(1);
  return store;
}

/** The reader's standing in a store as its answer carries it: a limit only for a staff role. */
function standingOf(role: StoreRole, refundLimitUsdc: string | null) {
  return { role, refundLimitUsdc: role === 'staff' ? refundLimitUsdc : null };
}

/** A store by id in its team's view, read by a member with `standing`; 404 when there is none. */
async function storeById(
  db: Executor,
  id: string,
  standing: { role: StoreRole; refundLimitUsdc: string | null },
): Promise<OwnerStore> {
  const [store] = await db.select(ownerColumns).from(stores).where(eq(stores.id, id)).limit(1);
  if (!store) throw new AppError('not_found', STORE_NOT_FOUND);
  return { ...store, ...standingOf(standing.role, standing.refundLimitUsdc) };
}

/**
 * A store of the caller's team by id, when its role there allows `permission`: 404 for unknown
 * ids and for stores it is not a member of alike, 403 for a role that does not allow it.
 */
export async function getOwnStoreOrThrow(
  db: Executor,
  caller: Caller,
  id: string,
  permission: StorePermission,
): Promise<OwnerStore> {
  if (!isUuid(id)) throw new AppError('not_found', STORE_NOT_FOUND);
  const membership = await authorizeStore(db, caller, id, permission);
  return storeById(db, id, membership);
}

/**
 * Takes `slug` for one of the merchant's stores, inside the transaction that gives it to the store:
 * a slug never used becomes theirs; one they had before is theirs again; one that another merchant
 * has or had is 409 (see `storeSlugs`).
 */
async function claimSlug(tx: Executor, ownerId: string, slug: string): Promise<void> {
  await tx.insert(storeSlugs).values({ slug, ownerId }).onConflictDoNothing();
  const [row] = await tx
    .select({ ownerId: storeSlugs.ownerId })
    .from(storeSlugs)
    .where(eq(storeSlugs.slug, slug))
    .limit(1);
  if (row?.ownerId !== ownerId) throw new AppError('already_exists', SLUG_TAKEN);
}

/** Runs `write`, answering 409 (the slug is taken) for a unique violation. */
async function slugChecked<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('already_exists', SLUG_TAKEN);
    throw error;
  }
}

/**
 * Creates a store owned by the merchant (any ownerId in the body is ignored); 409 on a slug another
 * store has, or another merchant had. Its owner is told by email (mail/notices.ts).
 */
export async function createStore(
  db: Database,
  ownerId: string,
  input: CreateStore,
  notice: NoticeContext,
  actor: AuditActor,
): Promise<OwnerStore> {
  const { ownerId: _ignored, ...fields } = input;
  const paymentAddress = fields.paymentAddress || null;
  const id = await slugChecked(() =>
    db.transaction(async (tx) => {
      await claimSlug(tx, ownerId, fields.slug);
      const [created] = await tx
        .insert(stores)
        .values({ ...fields, paymentAddress, replyToEmail: fields.replyToEmail || null, ownerId })
        .returning({ id: stores.id });
      await enqueueAccountNotice(
        tx,
        ownerId,
        { kind: 'store_created', storeName: fields.name, slug: fields.slug, paymentAddress },
        notice,
      );
      const id = (created as { id: string }).id;
      await recordAudit(tx, actor, {
        action: 'store.created',
        accountId: ownerId,
        storeId: id,
        changes: {
          ...changed('slug', null, fields.slug),
          ...changed('paymentAddress', null, paymentAddress),
        },
      });
      return id;
    }),
  );
  return storeById(db, id, { role: 'owner', refundLimitUsdc: null });
}

/** Whether an edit sets another payout address (which withdraws "Verified Store"). */
export function payoutAddressChanges(
  current: string | null,
  next: string | null | undefined,
): boolean {
  if (next === undefined) return false;
  return (current ?? '').toLowerCase() !== (next ?? '').toLowerCase();
}

/**
 * The changes of an edit that decide where a store's sales go: its payout address, its slug (its
 * URL), closing it. Note: a stolen session or a leaked API key could otherwise move the store's
 * URL away, close it, and open a store of its own there; these need a session and the second
 * factor (stores/index.ts), and each is mailed to the owner.
 */
export type GuardedChange = 'payout' | 'slug' | 'deactivate';

/** The guarded changes `input` makes to `current` (values sent unchanged are none). */
export function guardedChangesOf(current: OwnerStore, input: UpdateStoreBody): GuardedChange[] {
  const changes: GuardedChange[] = [];
  if (payoutAddressChanges(current.paymentAddress, input.paymentAddress)) changes.push('payout');
  if (input.slug !== undefined && input.slug !== current.slug) changes.push('slug');
  if (input.isActive === false && current.isActive) changes.push('deactivate');
  return changes;
}

/**
 * The conditions that keep an edit from making a guarded change it was not allowed: a field it
 * sends must still hold that value (a concurrent edit that changed it makes this one stale).
 */
function unchangedGuards(input: UpdateStoreBody, allowed: readonly GuardedChange[]): SQL[] {
  const guards: SQL[] = [];
  if (input.paymentAddress !== undefined && !allowed.includes('payout'))
    guards.push(
      sql`lower(coalesce(${stores.paymentAddress}, '')) = ${(input.paymentAddress ?? '').toLowerCase()}`,
    );
  if (input.slug !== undefined && !allowed.includes('slug'))
    guards.push(eq(stores.slug, input.slug));
  if (input.isActive === false && !allowed.includes('deactivate'))
    guards.push(eq(stores.isActive, false));
  return guards;
}

/** The audit entries of an edit: its guarded changes, and a store opened again. */
function auditEventsOf(before: OwnerStore, after: OwnerStore): AuditEvent[] {
  const at = { accountId: after.ownerId, storeId: after.id };
  const events: AuditEvent[] = [];
  if (payoutAddressChanges(before.paymentAddress, after.paymentAddress))
    events.push({
      ...at,
      action: 'store.payout_address_changed',
      changes: changed('paymentAddress', before.paymentAddress, after.paymentAddress),
    });
  if (before.slug !== after.slug)
    events.push({
      ...at,
      action: 'store.slug_changed',
      changes: changed('slug', before.slug, after.slug),
    });
  if (before.isActive !== after.isActive)
    events.push({
      ...at,
      action: after.isActive ? 'store.reactivated' : 'store.deactivated',
      changes: changed('isActive', before.isActive, after.isActive),
    });
  return events;
}

/** The owner's notices of the guarded changes an edit made. */
function noticesOf(
  before: OwnerStore,
  after: OwnerStore,
  changes: readonly GuardedChange[],
): Parameters<typeof enqueueAccountNotice>[2][] {
  const storeName = after.name;
  return changes.map((change) =>
    change === 'payout'
      ? {
          kind: 'payout_changed',
          storeName,
          slug: after.slug,
          from: before.paymentAddress,
          to: after.paymentAddress,
        }
      : change === 'slug'
        ? { kind: 'store_slug_changed', storeName, from: before.slug, to: after.slug }
        : { kind: 'store_deactivated', storeName, slug: after.slug },
  );
}

const NOT_VERIFIED = {
  verifiedAddress: null,
  verifiedAt: null,
  verificationMessage: null,
  verificationSignature: null,
};

/**
 * Applies the merchant's edit to `current` (its store as read); 409 with the current store when
 * `updatedAt` is stale. `allowed`: the guarded changes the caller may make (guardedChangesOf
 * after its checks); a guarded change not in it, made by a concurrent edit meanwhile, makes this
 * edit stale rather than undone. A new slug is claimed for the owner (the old one stays theirs);
 * the owner is mailed each guarded change.
 */
export async function updateStore(
  db: Database,
  current: OwnerStore,
  input: UpdateStoreBody,
  options: { allowed: readonly GuardedChange[]; notice: NoticeContext; actor: AuditActor },
): Promise<OwnerStore> {
  const { id, ownerId } = current;
  const { updatedAt, ownerId: _ignored, ...fields } = input;
  const expected = expectedVersion(updatedAt);
  if (expected && expected.getTime() !== current.updatedAt.getTime())
    throw staleEdit('store', current);
  const changes = {
    ...fields,
    // Note: undefined leaves the column as it is; '' clears it.
    replyToEmail: fields.replyToEmail === '' ? null : fields.replyToEmail,
    updatedAt: nextVersion(stores.updatedAt),
  };
  if (fields.paymentAddress === '') changes.paymentAddress = null;
  const made = guardedChangesOf(current, input).filter((c) => options.allowed.includes(c));
  const withdrawn = made.includes('payout');
  const saved = await slugChecked(() =>
    db.transaction(async (tx) => {
      if (made.includes('slug') && fields.slug) await claimSlug(tx, ownerId, fields.slug);
      // Note: the row is locked first, so the audit's "before" is what this edit replaced.
      await tx.execute(sql`select 1 from ${stores} where ${stores.id} = ${id} for update`);
      const before = await storeById(tx, id, current);
      const updated = await tx
        .update(stores)
        .set(withdrawn ? { ...changes, ...NOT_VERIFIED } : changes)
        .where(
          and(
            eq(stores.id, id),
            expected ? eq(stores.updatedAt, expected) : undefined,
            ...unchangedGuards(input, options.allowed),
          ),
        )
        .returning({ id: stores.id });
      if (updated.length === 0) return false;
      const after = await storeById(tx, id, current);
      for (const notice of noticesOf(current, after, made))
        await enqueueAccountNotice(tx, ownerId, notice, options.notice);
      for (const event of auditEventsOf(before, after)) await recordAudit(tx, options.actor, event);
      return true;
    }),
  );
  const after = await storeById(db, id, current);
  if (!saved) throw staleEdit('store', after);
  return after;
}

/** A store's checkout settings (tax rate, shipping methods) with the defaults filled in. */
export async function loadStoreSettings(db: Database, storeId: string) {
  const [row] = isUuid(storeId)
    ? await db
        .select({
          taxRateBps: stores.taxRateBps,
          shippingOptions: stores.shippingOptions,
          shippingZones: stores.shippingZones,
          pricesIncludeTax: stores.pricesIncludeTax,
          shippingTime: stores.shippingTime,
          returnPolicyDays: stores.returnPolicyDays,
        })
        .from(stores)
        .where(eq(stores.id, storeId))
        .limit(1)
    : [];
  return resolveStoreSettings(row ?? {});
}
