// A product's picture: the image when it loads, else a drawn placeholder (no image set) or a
// "image unavailable" placeholder (the image failed), never the browser's broken-image glyph.
import { useState } from 'react';
import { BrokenImageIcon, PackageIcon } from './icons.tsx';

/** The image of a product, or its placeholder; `alt` empty for a decorative copy (cards). */
export function ProductImage(props: {
  src: string | null | undefined;
  alt: string;
  className?: string;
  loading?: 'lazy' | 'eager';
}) {
  // Note: remembers which URL failed, so a new URL (the catalogue refreshed) is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  const { src, alt } = props;
  const className = `product-image-box${props.className ? ` ${props.className}` : ''}`;
  if (src && failed !== src) {
    return (
      <span className={className}>
        <img src={src} alt={alt} loading={props.loading} onError={() => setFailed(src)} />
      </span>
    );
  }
  const broken = Boolean(src);
  const label = alt ? `${alt}: ${broken ? 'image unavailable' : 'no image'}` : undefined;
  return (
    <span
      className={`${className} product-image-placeholder`}
      data-testid={broken ? 'image-fallback' : 'image-placeholder'}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
    >
      {broken ? (
        <BrokenImageIcon size="40%" strokeWidth={1.25} />
      ) : (
        <PackageIcon size="40%" strokeWidth={1.25} />
      )}
    </span>
  );
}
