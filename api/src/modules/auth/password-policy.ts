// What a new password must be: not the username nor containing it, and strong by zxcvbn (score 3
// or more out of 4: "safely unguessable", about 10^8 guesses, against slowed online guessing).
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { AppError } from '../../http/errors.ts';

/** Lowest zxcvbn score a new password may have. */
export const MIN_PASSWORD_SCORE = 3;

/** Texts of the password policy. */
export const PASSWORD_POLICY_MESSAGES = {
  containsUsername: 'Choose a password that does not contain your username',
  tooWeak: (reason: string) => `Choose a stronger password: ${reason}`,
  fallbackReason: 'it would be easy to guess; add a few uncommon words',
} as const;

// Note: the dictionaries take ~30 MB and ~150 ms to load, so they are imported at the first new
// password, not at start-up (an API that only serves sign-ins never loads them). The analysis is
// synchronous: its limits keep it to milliseconds (measured with adversarial inputs: 64 characters
// and 10 l33t substitutions stay under ~20 ms; the defaults, 256 and 100, took up to 650 ms for a
// 200-character repetition), and the rest of a long password cannot make a weak start guessable.
let checker: Promise<ZxcvbnFactory> | undefined;
function zxcvbn(): Promise<ZxcvbnFactory> {
  checker ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([core, common, en]) =>
      new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
        maxLength: 64,
        l33tMaxSubstitutions: 10,
      }),
  );
  return checker;
}

/** zxcvbn's sentence as the end of ours: first letter lowercase, no final period. */
function asReason(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`.replace(/\.$/, '');
}

/**
 * Why `password` may not be the new password of `username`, or undefined when it may. The
 * username is compared lowercased, as usernames are stored.
 */
export async function passwordProblem(
  username: string,
  password: string,
): Promise<string | undefined> {
  const name = username.toLowerCase();
  if (name && password.toLowerCase().includes(name))
    return PASSWORD_POLICY_MESSAGES.containsUsername;
  const result = (await zxcvbn()).check(password, [name]);
  if (result.score >= MIN_PASSWORD_SCORE) return undefined;
  const reason =
    asReason(result.feedback.warning) ??
    asReason(result.feedback.suggestions[0]) ??
    PASSWORD_POLICY_MESSAGES.fallbackReason;
  return PASSWORD_POLICY_MESSAGES.tooWeak(reason);
}

/** Throws 422 with the reason when `password` may not be the new password of `username`. */
export async function assertPasswordAllowed(username: string, password: string): Promise<void> {
  const problem = await passwordProblem(username, password);
  if (problem) throw new AppError('validation_failed', problem);
}
