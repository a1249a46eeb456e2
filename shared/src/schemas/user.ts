// User schemas: the merchant account (docs/data.md#users) and its sign-up and sign-in forms.
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
// Note: sign-in matches any username, but none is longer than sign-up's 32; a cap that refuses a
// huge body with a 422 before the limiter or argon2 sees it, with room for a pasted space or two.
/** Longest username accepted at sign-in. */
export const MAX_SIGN_IN_USERNAME_LENGTH = 64;
/** The sign-in form's message for an over-long username (the shape of the other "too long" texts). */
export const USERNAME_TOO_LONG = `Username must be at most ${MAX_SIGN_IN_USERNAME_LENGTH} characters`;

/**
 * Sign-in body: username (at most 64 characters) and password (at most 200), both required. The
 * username is matched lowercased.
 */
export const CredentialsSchema = v.object({
  username: v.pipe(
    requiredText(M.usernameRequired),
    v.maxLength(MAX_SIGN_IN_USERNAME_LENGTH, USERNAME_TOO_LONG),
    v.toLowerCase(),
  ),
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
