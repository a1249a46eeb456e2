// User schemas: the merchant account (SPEC §3 users) and its sign-up and sign-in forms.
import * as v from 'valibot';
import { ACCOUNT_MESSAGES as M } from '../messages.ts';
import { missingAsEmpty, requiredText } from './common.ts';

/** Usernames: 3-32 of lowercase letters, digits, hyphen and underscore (safe in URLs and logs). */
export const USERNAME_PATTERN = /^[a-z0-9_-]{3,32}$/;
/** Shortest password accepted at sign-up. */
export const MIN_PASSWORD_LENGTH = 8;
// Note: argon2 cost grows with the input; a cap keeps one sign-in from costing seconds of CPU.
/** Longest password accepted. */
export const MAX_PASSWORD_LENGTH = 200;

/** Sign-in body: username and password, both required. The username is matched lowercased. */
export const CredentialsSchema = v.object({
  username: v.pipe(requiredText(M.usernameRequired), v.toLowerCase()),
  password: v.pipe(
    missingAsEmpty(M.passwordRequired),
    v.nonEmpty(M.passwordRequired),
    v.maxLength(MAX_PASSWORD_LENGTH, M.passwordTooLong),
  ),
});
/** Sign-in body. */
export type Credentials = v.InferOutput<typeof CredentialsSchema>;

/** Sign-up body: a username of 3-32 [a-z0-9_-] (input is lowercased) and a password of 8-200 characters. */
export const SignUpSchema = v.object({
  username: v.pipe(
    requiredText(M.usernameRequired),
    v.toLowerCase(),
    v.regex(USERNAME_PATTERN, M.usernameFormat),
  ),
  password: v.pipe(
    missingAsEmpty(M.passwordRequired),
    v.nonEmpty(M.passwordRequired),
    v.minLength(MIN_PASSWORD_LENGTH, M.passwordTooShort),
    v.maxLength(MAX_PASSWORD_LENGTH, M.passwordTooLong),
  ),
});
/** Sign-up body. */
export type SignUp = v.InferOutput<typeof SignUpSchema>;

/** A user as the API may return it: never the password hash. */
export const UserSchema = v.object({ id: v.string(), username: v.string() });
/** A public user. */
export type User = v.InferOutput<typeof UserSchema>;
