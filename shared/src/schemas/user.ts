// User schemas: the merchant account (SPEC §3 users).
import * as v from 'valibot';
import { requiredText } from './common.ts';

/** Sign-up / sign-in body: username and password, both required. */
export const CredentialsSchema = v.object({
  username: requiredText('Username is required'),
  password: v.pipe(v.string('Password is required'), v.nonEmpty('Password is required')),
});
/** Sign-up / sign-in body. */
export type Credentials = v.InferOutput<typeof CredentialsSchema>;

/** A user as the API may return it: never the password hash. */
export const UserSchema = v.object({ id: v.string(), username: v.string() });
/** A public user. */
export type User = v.InferOutput<typeof UserSchema>;
