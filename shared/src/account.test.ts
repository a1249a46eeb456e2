// The account schemas: emails lowercased and checked, codes normalised, sign-up's optional email
// for the API and required one for the form, and the readable names of browsers.
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import {
  ACCOUNT_EMAIL_MESSAGES,
  AccountEmailSchema,
  describeUserAgent,
  ResetPasswordSchema,
  SecondFactorCodeSchema,
  SignInSchema,
  SignUpFormSchema,
  SignUpWithEmailSchema,
  TOTP_MESSAGES,
} from './account.ts';
import { firstIssueMessage } from './schemas/common.ts';

const message = (schema: v.GenericSchema, value: unknown) =>
  firstIssueMessage(v.safeParse(schema, value));

describe('account email', () => {
  test('trimmed and lowercased', () => {
    expect(v.parse(AccountEmailSchema, '  Ada@Example.COM ')).toBe('ada@example.com');
  });
  test('missing, malformed and over-long addresses have their own messages', () => {
    expect(message(AccountEmailSchema, undefined)).toBe(ACCOUNT_EMAIL_MESSAGES.emailRequired);
    expect(message(AccountEmailSchema, 'ada@')).toBe(ACCOUNT_EMAIL_MESSAGES.emailInvalid);
    expect(message(AccountEmailSchema, `${'a'.repeat(250)}@x.io`)).toBe(
      ACCOUNT_EMAIL_MESSAGES.emailTooLong,
    );
  });
});

describe('sign-up', () => {
  const body = { username: 'Ada', password: 'correct horse' };
  test('the API takes an account without an email; the form requires one', () => {
    expect(v.parse(SignUpWithEmailSchema, body)).toEqual({
      username: 'ada',
      password: 'correct horse',
    });
    expect(message(SignUpFormSchema, body)).toBe(ACCOUNT_EMAIL_MESSAGES.emailRequired);
    expect(v.parse(SignUpFormSchema, { ...body, email: 'A@B.io' }).email).toBe('a@b.io');
  });
});

describe('second-factor codes', () => {
  test('6 digits or a recovery code, spaces dropped, lowercased', () => {
    expect(v.parse(SecondFactorCodeSchema, ' 123 456 ')).toBe('123456');
    expect(v.parse(SecondFactorCodeSchema, 'ABCDE-FGH23')).toBe('abcde-fgh23');
    expect(v.parse(SecondFactorCodeSchema, 'abcdefgh23')).toBe('abcdefgh23');
    expect(message(SecondFactorCodeSchema, '12345')).toBe(TOTP_MESSAGES.codeFormat);
    expect(message(SecondFactorCodeSchema, '')).toBe(TOTP_MESSAGES.codeRequired);
  });
  test('sign-in takes it optionally', () => {
    expect(v.parse(SignInSchema, { username: 'Ada', password: 'x' })).toEqual({
      username: 'ada',
      password: 'x',
    });
    expect(v.parse(SignInSchema, { username: 'ada', password: 'x', code: '123456' }).code).toBe(
      '123456',
    );
  });
});

describe('reset body', () => {
  test('a token and a password of the sign-up length rules', () => {
    expect(message(ResetPasswordSchema, { password: 'long enough' })).toBe(
      ACCOUNT_EMAIL_MESSAGES.tokenRequired,
    );
    expect(message(ResetPasswordSchema, { token: 't', password: 'short' })).toBe(
      'Password must be at least 8 characters',
    );
    expect(message(ResetPasswordSchema, { token: 'x'.repeat(101), password: 'long enough' })).toBe(
      ACCOUNT_EMAIL_MESSAGES.linkInvalid,
    );
  });
});

describe('describeUserAgent', () => {
  test.each([
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Version/18.0 Safari/604.1',
      'Safari on iOS',
    ],
    ['Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36', 'Chrome on Android'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64) Chrome/131.0 Safari/537.36 Edg/131.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko Firefox/132.0',
      'Firefox on macOS',
    ],
    [null, 'Unknown device'],
    ['curl/8.5.0', 'curl/8.5.0'],
  ])('%s', (agent, name) => {
    expect(describeUserAgent(agent)).toBe(name);
  });
});
