// Many asks, one statement at a time: the asks that come while one statement runs go together in
// the next (one round trip for all of them, in the order asked). A busy moment costs a statement
// for many; a quiet moment's ask goes at once, with no timer to wait for.

/** Asks answered in groups by `write`; `settled` resolves once nothing is being written. */
export interface InGroups<Ask, Answer> {
  ask(ask: Ask): Promise<Answer>;
  settled(): Promise<void>;
}

/**
 * Sends asks to `write` in groups of at most `max`; `write` answers each ask of its group, in
 * order. When it throws, every ask of that group is rejected with its error.
 */
export function inGroups<Ask, Answer>(
  write: (asks: readonly Ask[]) => Promise<readonly Answer[]>,
  max: number,
): InGroups<Ask, Answer> {
  type Waiting = { ask: Ask; resolve: (answer: Answer) => void; reject: (error: unknown) => void };
  const pending: Waiting[] = [];
  let running: Promise<void> | undefined;
  const drain = async () => {
    while (pending.length > 0) {
      const group = pending.splice(0, max);
      try {
        const answers = await write(group.map((waiting) => waiting.ask));
        for (const [i, waiting] of group.entries()) waiting.resolve(answers[i] as Answer);
      } catch (error) {
        for (const waiting of group) waiting.reject(error);
      }
    }
    // Note: in the same step as the last look at `pending`, so no ask is left without a drain.
    running = undefined;
  };
  return {
    ask: (ask) =>
      new Promise<Answer>((resolve, reject) => {
        pending.push({ ask, resolve, reject });
        running ??= drain();
      }),
    settled: async () => {
      await running;
    },
  };
}
