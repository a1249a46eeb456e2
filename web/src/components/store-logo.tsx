// A store's logo: an image URL, a 1-2 character emoji, or the name's first letter (also when the
// image fails to load, so a broken logo never shows the browser's missing-image glyph).
import { useState } from 'react';
import { isEmojiLogo } from '../lib/format.ts';

/** The logo of a store (or an external store), sized by the `size` class. */
export function StoreLogo(props: { name: string; logoUrl?: string | null; size?: 'sm' | 'lg' }) {
  // Note: remembers which URL failed, so a changed logo is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  const className = `store-logo store-logo-${props.size ?? 'sm'}`;
  if (isEmojiLogo(props.logoUrl)) {
    return (
      <span className={className} role="img" aria-label={`${props.name} logo`}>
        {props.logoUrl}
      </span>
    );
  }
  const { logoUrl } = props;
  if (logoUrl && failed !== logoUrl) {
    return (
      <img
        className={className}
        src={logoUrl}
        alt={`${props.name} logo`}
        onError={() => setFailed(logoUrl)}
      />
    );
  }
  return (
    <span className={className} aria-hidden="true">
      {props.name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
