// The second-factor state of one action that needs a fresh authenticator code once the account has
// two-step verification on: whether the code is asked (the account has it on, or the API asked),
// the code typed, and the API's refusal of the last one.
import { useEffect, useState } from 'react';
import { errorText } from '../lib/api.ts';
import { fetchAccount, secondFactorAsked } from './api.ts';

/** State and helpers of an action's code field. */
export function useSecondFactor() {
  const [needed, setNeeded] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  useEffect(() => {
    fetchAccount().then(
      (account) => account.totpEnabled && setNeeded(true),
      () => undefined,
    );
  }, []);
  return {
    needed,
    code,
    setCode,
    error,
    setError,
    /** The code to send: the one typed when it is asked, none otherwise. */
    codeToSend: needed ? code : undefined,
    /** Whether the API refused `failure` for the code: the field then shows with its message. */
    refused(failure: unknown): boolean {
      if (!secondFactorAsked(failure)) return false;
      setNeeded(true);
      setError(errorText(failure));
      return true;
    },
    /** Clears the code and its error (after a success, or on cancel). */
    clear() {
      setCode('');
      setError(undefined);
    },
  };
}
/** What useSecondFactor gives a component. */
export type SecondFactorState = ReturnType<typeof useSecondFactor>;
