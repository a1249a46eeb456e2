// The password policy: zxcvbn score 3 or more, never the username, with the reason in the message.
import { describe, expect, test } from 'bun:test';
import { passwordProblem } from './password-policy.ts';

describe('passwordProblem', () => {
  test.each([['correct horse battery'], ['violet-harbor-lantern-42'], ['Tr0ub4dor&3 and more']])(
    'accepts %s',
    async (password) => {
      expect(await passwordProblem('ada', password)).toBeUndefined();
    },
  );

  test.each([
    ['password', 'Choose a stronger password: this is a heavily used password'],
    ['password123', 'Choose a stronger password: this is a commonly used password'],
    ['qwertyuiop', 'Choose a stronger password: this is a frequently used password'],
    ['abcabcabcabc', expect.stringMatching(/^Choose a stronger password: /)],
  ])('refuses %s', async (password, message) => {
    expect(await passwordProblem('ada', password)).toEqual(message);
  });

  test('refuses the username, or a password that contains it, in any case', async () => {
    for (const password of ['ada_shop', 'ADA_SHOP', 'my ada_shop password 2024'])
      expect(await passwordProblem('ada_shop', password)).toBe(
        'Choose a password that does not contain your username',
      );
  });

  test('counts the username as known to the attacker', async () => {
    expect(await passwordProblem('lovelace', 'Lovelace1815')).toBe(
      'Choose a password that does not contain your username',
    );
    // Not containing the name, but built on it (reversed): zxcvbn is told the username.
    expect(await passwordProblem('grace', 'ecarg2024!')).toBe(
      'Choose a stronger password: there should not be any personal or page related data',
    );
    expect(await passwordProblem('hopper', 'ecarg2024!')).toBeUndefined();
  });

  test('stays fast on long adversarial input', async () => {
    await passwordProblem('ada', 'warm up the dictionaries');
    for (const password of ['aB3$'.repeat(50), 'a1'.repeat(100), 'x'.repeat(200)]) {
      const started = performance.now();
      expect(await passwordProblem('ada', password)).toStartWith('Choose a stronger password: ');
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});
