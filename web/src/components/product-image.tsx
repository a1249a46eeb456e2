// A product's picture: the image when it loads, else a drawn placeholder (no image set) or a
// "image unavailable" placeholder (the image failed), never the browser's broken-image glyph.
import { useState } from 'react';
import { BrokenImageIcon, PackageIcon } from './icons.tsx';

/** An uploaded picture's page size (`/api/uploads/{id}/page.webp`). */
const UPLOADED_PAGE = /^(\/api\/uploads\/[0-9a-f]{32}\/)page\.webp$/;

/**
 * The sizes of an uploaded picture for the browser to choose from (480 px for cards, 1200 px
 * for the product page); none for a picture elsewhere.
 */
export function uploadedSrcSet(src: string): string | undefined {
  const base = UPLOADED_PAGE.exec(src)?.[1];
  return base ? `${base}card.webp 480w, ${base}page.webp 1200w` : undefined;
}

/** The image of a product, or its placeholder; `alt` empty for a decorative copy (cards). */
export function ProductImage(props: {
  src: string | null | undefined;
  alt: string;
  className?: string;
  loading?: 'lazy' | 'eager';
  /** How wide the image is shown (the `sizes` attribute), for uploaded pictures' sizes. */
  sizes?: string;
}) {
  // Note: remembers which URL failed, so a new URL (the catalogue refreshed) is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  const { src, alt } = props;
  const className = `product-image-box${props.className ? ` ${props.className}` : ''}`;
  if (src && failed !== src) {
    return (
      <span className={className}>
        <img
          src={src}
          srcSet={uploadedSrcSet(src)}
          sizes={
            uploadedSrcSet(src) ? (props.sizes ?? '(max-width: 640px) 100vw, 480px') : undefined
          }
          alt={alt}
          loading={props.loading}
          onError={() => setFailed(src)}
        />
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
