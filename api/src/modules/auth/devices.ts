// The browsers an account has signed in from: a long-lived random `device` cookie (only its SHA-256
// in `known_devices`). A sign-in from a browser without one the account knows is audited as a
// sign-in from a new device; the browser that created the account is known from the start.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { knownDevices } from '../../db/schema.ts';
import { hashToken, newSessionToken } from '../../http/session.ts';
import { type AuditActor, recordAudit } from '../audit/record.ts';

/** Name of the device cookie. */
export const DEVICE_COOKIE = 'device';
/** How long a browser keeps its device cookie: 400 days (the most browsers allow). */
const DEVICE_TTL_SECONDS = 400 * 24 * 60 * 60;

/** The `device` cookie's value in a request (a well-formed one only). */
export function deviceTokenOf(request: Request): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    const value = rest.join('=');
    if (name === DEVICE_COOKIE && /^[\w-]{20,100}$/.test(value)) return value;
  }
  return undefined;
}

/** Set-Cookie value of a device cookie (sent to the API's auth routes only). */
export function deviceCookie(token: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${token}; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=${DEVICE_TTL_SECONDS}${secure ? '; Secure' : ''}`;
}

/**
 * Notes the browser `token` (its device cookie; a fresh one without) for `userId`, in the
 * transaction that opens its session; when the account did not know it and `actor` is given (a
 * sign-in), the sign-in is audited as one from a new device. Returns the cookie's token.
 */
export async function noteDevice(
  tx: Executor,
  userId: string,
  token: string | undefined,
  actor?: AuditActor,
): Promise<string> {
  const device = token ?? newSessionToken();
  const deviceHash = hashToken(device);
  const [known] = await tx
    .select({ userId: knownDevices.userId })
    .from(knownDevices)
    .where(and(eq(knownDevices.userId, userId), eq(knownDevices.deviceHash, deviceHash)))
    .limit(1);
  if (known) return device;
  const added = await tx
    .insert(knownDevices)
    .values({ userId, deviceHash })
    .onConflictDoNothing()
    .returning({ userId: knownDevices.userId });
  if (added.length > 0 && actor)
    await recordAudit(tx, actor, {
      action: 'account.new_device_sign_in',
      accountId: userId,
      // Note: the device by a digest of its cookie's digest: recognisable, never the cookie.
      subjectId: hashToken(deviceHash).slice(0, 16),
    });
  return device;
}
