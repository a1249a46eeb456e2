// A store's logo: an image URL, a 1-2 character emoji, or the name's first letter.
import { isEmojiLogo } from '../lib/format.ts';

/** The logo of a store (or an external store), sized by the `size` class. */
export function StoreLogo(props: { name: string; logoUrl?: string | null; size?: 'sm' | 'lg' }) {
  const className = `store-logo store-logo-${props.size ?? 'sm'}`;
  if (isEmojiLogo(props.logoUrl)) {
    return (
      <span className={className} role="img" aria-label={`${props.name} logo`}>
        {props.logoUrl}
      </span>
    );
  }
  if (props.logoUrl) {
    return <img className={className} src={props.logoUrl} alt={`${props.name} logo`} />;
  }
  return (
    <span className={className} aria-hidden="true">
      {props.name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
