import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { firstIssueMessage } from './common.ts';
import { CredentialsSchema, SignUpSchema } from './user.ts';

const signUpError = (body: Record<string, unknown>) =>
  firstIssueMessage(v.safeParse(SignUpSchema, body));

describe('sign-up form', () => {
  it('lowercases and trims the username', () => {
    expect(v.parse(SignUpSchema, { username: ' Ada_Shop ', password: 'correct horse' })).toEqual({
      username: 'ada_shop',
      password: 'correct horse',
    });
  });

  it.each([
    [{ password: 'long enough' }, 'Username is required'],
    [{ username: '  ', password: 'long enough' }, 'Username is required'],
    [
      { username: 'ab', password: 'long enough' },
      'Username must be 3 to 32 characters: lowercase letters, numbers, hyphens or underscores',
    ],
    [
      { username: 'a'.repeat(33), password: 'long enough' },
      'Username must be 3 to 32 characters: lowercase letters, numbers, hyphens or underscores',
    ],
    [
      { username: 'ada lovelace', password: 'long enough' },
      'Username must be 3 to 32 characters: lowercase letters, numbers, hyphens or underscores',
    ],
    [{ username: 'ada' }, 'Password is required'],
    [{ username: 'ada', password: '' }, 'Password is required'],
    [{ username: 'ada', password: 'short' }, 'Password must be at least 8 characters'],
    [{ username: 'ada', password: 'x'.repeat(201) }, 'Password must be at most 200 characters'],
  ])('%j -> %s', (body, message) => {
    expect(signUpError(body)).toBe(message);
  });
});

describe('sign-in form', () => {
  it('requires both fields but not the sign-up length rules', () => {
    expect(v.parse(CredentialsSchema, { username: 'Demo', password: 'x' })).toEqual({
      username: 'demo',
      password: 'x',
    });
    expect(firstIssueMessage(v.safeParse(CredentialsSchema, { password: 'x' }))).toBe(
      'Username is required',
    );
    expect(firstIssueMessage(v.safeParse(CredentialsSchema, { username: 'demo' }))).toBe(
      'Password is required',
    );
  });

  it.each([
    ['a 65-character username', { username: 'a'.repeat(65), password: 'x' }],
    ['a 900 KB username', { username: 'a'.repeat(900_000), password: 'x' }],
  ])('refuses %s', (_label, body) => {
    expect(firstIssueMessage(v.safeParse(CredentialsSchema, body))).toBe(
      'Username must be at most 64 characters',
    );
  });

  it('refuses a 201-character password', () => {
    const body = { username: 'demo', password: 'x'.repeat(201) };
    expect(firstIssueMessage(v.safeParse(CredentialsSchema, body))).toBe(
      'Password must be at most 200 characters',
    );
  });

  it('accepts the longest username and password', () => {
    const body = { username: `  ${'a'.repeat(64)}  `, password: 'x'.repeat(200) };
    expect(v.parse(CredentialsSchema, body)).toEqual({
      username: 'a'.repeat(64),
      password: 'x'.repeat(200),
    });
  });
});
