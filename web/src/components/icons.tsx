// The app's UI icons: inline SVG (lucide) instead of emoji, so they look the same on every device
// and never fall back to a missing-glyph box. Merchant content (an emoji store logo) stays as given.
// Note: named imports only; each icon is a few hundred bytes and the rest is tree-shaken away.
import type { LucideProps } from 'lucide-react';

export {
  ArrowLeft as BackIcon,
  Banknote as FeeIcon,
  Bell as WebhookIcon,
  Check as CheckIcon,
  Globe as GlobeIcon,
  ImageOff as BrokenImageIcon,
  Lock as LockIcon,
  Minus as MinusIcon,
  Package as PackageIcon,
  Palette as PaletteIcon,
  Plus as PlusIcon,
  RotateCcw as ReturnsIcon,
  ShoppingCart as CartIcon,
  Star as StarIcon,
  Timer as TimerIcon,
  Trash2 as TrashIcon,
  TriangleAlert as WarningIcon,
  Truck as TruckIcon,
  Zap as ZapIcon,
} from 'lucide-react';

/** Props of every icon: size (default 24, or `1em` to follow the text), className, aria-*. */
export type IconProps = LucideProps;
