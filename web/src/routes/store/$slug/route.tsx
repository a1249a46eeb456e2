// Layout of /store/{slug}/*: resolves the store (cached copy first), applies its theme and its
// own installable web manifest while any of its pages is shown, and resets both on leaving.
import { createFileRoute, Outlet } from '@tanstack/react-router';
import { useStoreBySlug } from '../../../db/catalogue.ts';
import { requireParam, SlugParamSchema } from '../../../lib/route-params.ts';
import { useStoreManifest } from '../../../lib/store-manifest.ts';
import { useStoreTheme } from '../../../lib/theme.ts';
import { StoreContext } from './-components/store-context.tsx';

export const Route = createFileRoute('/store/$slug')({
  loader: ({ params }) => requireParam(SlugParamSchema, params.slug),
  component: StoreLayout,
});

function StoreLayout() {
  const { slug } = Route.useParams();
  const store = useStoreBySlug(slug);
  useStoreTheme(store.data);
  useStoreManifest(store.data);
  return (
    <StoreContext.Provider value={store}>
      <Outlet />
    </StoreContext.Provider>
  );
}
