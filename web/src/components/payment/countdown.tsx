// The expiry countdown in h:mm:ss to the server's expiredAt, ticking every second.
import { formatCountdown, secondsUntil } from '@store/shared/payment-display';
import { useEffect, useState } from 'react';

/** Seconds left until `expiredAt`, live; undefined while unknown. */
export function useSecondsLeft(expiredAt: string | null | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!expiredAt) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [expiredAt]);
  return secondsUntil(expiredAt, now);
}

/** The time left as h:mm:ss; a dash while the expiry is unknown. */
export function Countdown(props: { secondsLeft: number | undefined }) {
  if (props.secondsLeft === undefined) return <span className="countdown muted">—:——:——</span>;
  return (
    <time className="countdown" data-testid="countdown" dateTime={`PT${props.secondsLeft}S`}>
      {formatCountdown(props.secondsLeft)}
    </time>
  );
}
