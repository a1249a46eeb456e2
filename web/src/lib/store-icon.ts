// Square PNG icons of a store for its web manifest: the logo (emoji, letter or image) centred on
// the store's primary colour, drawn in a canvas. Falls back to the app icon without a canvas.
import { DEFAULT_COLORS, isHexColor } from '@store/shared';
import { isEmojiLogo } from './format.ts';

/** The inputs of a store icon. */
export interface StoreIconSource {
  name: string;
  logoUrl?: string | null;
  primaryColor?: string | null;
}

function loadImage(src: string): Promise<HTMLImageElement | undefined> {
  return new Promise((resolve) => {
    const image = new Image();
    // Note: without CORS a foreign logo would taint the canvas and toDataURL would throw.
    image.crossOrigin = 'anonymous';
    image.onload = () => resolve(image);
    image.onerror = () => resolve(undefined);
    image.src = src;
  });
}

/** Draws one icon of `size` px; undefined when the browser has no 2D canvas. */
export async function renderStoreIcon(
  source: StoreIconSource,
  size: number,
): Promise<string | undefined> {
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext?.('2d');
  if (!context) return undefined;
  const background =
    source.primaryColor && isHexColor(source.primaryColor)
      ? source.primaryColor
      : DEFAULT_COLORS.primary;
  context.fillStyle = background;
  context.fillRect(0, 0, size, size);
  const logo = source.logoUrl;
  const image = logo && !isEmojiLogo(logo) ? await loadImage(logo) : undefined;
  try {
    if (image) {
      // Note: the picture stays in the central 60% so the icon is also a valid maskable icon.
      const box = size * 0.6;
      const scale = Math.min(box / image.width, box / image.height);
      const width = image.width * scale;
      const height = image.height * scale;
      context.drawImage(image, (size - width) / 2, (size - height) / 2, width, height);
      return canvas.toDataURL('image/png');
    }
  } catch {
    // A tainted canvas: draw the letter instead.
    context.fillRect(0, 0, size, size);
  }
  const text = isEmojiLogo(logo) ? logo : source.name.trim().charAt(0).toUpperCase() || '$';
  context.fillStyle = '#ffffff';
  context.font = `600 ${Math.round(size * 0.42)}px system-ui, sans-serif`;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(text, size / 2, size / 2 + size * 0.02);
  return canvas.toDataURL('image/png');
}
